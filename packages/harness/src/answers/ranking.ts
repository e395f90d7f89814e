// The ranking: every contender that passed its gates, in order of its estimate, with the rank
// interval its decided pairwise comparisons allow.
import type { ContenderResult, Results } from '../model/results';
import { isFloor, isHandicapped } from '../model/questions';
import { rankIntervals, rankLabel } from '../stats/stats';
import { testRatio } from '../stats/procedures';
import { DECISION, familyPrior, holmLevels, noiseOf, windowPairs } from './decide';

export interface RankedContender extends ContenderResult {
  /** "1", or "2–5": the best and worst rank consistent with the decided pairwise comparisons. */
  rank: string;
  rankLo: number;
  rankHi: number;
  /** The contenders it is decided faster than, by name. */
  beats: string[];
}

/**
 * Contenders that passed every gate (not ceilings or handicapped twins), with rank intervals from
 * every pair of them tested as the answers are (moderated t on per-round log ratios, the prior
 * fitted over these pairs), Holm-corrected at DECISION.alpha over all pairs. The table reads as an
 * order: sorted by the estimate (median req/s), the rank interval beside it as text. A report
 * computes it once, in its analysis (analysis.ts).
 */
export function ranked(r: Results): RankedContender[] {
  const ok = r.contenders
    .filter((c) => c.status === 'ok' && c.rps && !c.self_check_of && !c.base_of && !c.ceiling && !isHandicapped(c))
    .sort((a, b) => b.rps!.median - a.rps!.median);
  const pairs = ok.flatMap((_, i) => ok.slice(i + 1).map((__, k) => [i, i + 1 + k] as [number, number]));
  const data = pairs.map(([i, j]) => windowPairs(ok[i], ok[j]));
  const { reps, prior } = familyPrior(data);
  const tests = pairs.map(([i, j], k) => ({
    i,
    j,
    ...testRatio('moderated-t', { rounds: [], reps: reps[k]!, prior, s02: prior.scale(noiseOf(data[k]!)) }),
  }));
  const levels = holmLevels(
    tests.map((t) => t.p),
    DECISION.alpha,
  );
  const decided = tests.flatMap((t, k) =>
    levels[k] === null ? [] : [t.ratio >= 1 ? ([t.i, t.j] as [number, number]) : ([t.j, t.i] as [number, number])],
  );
  const ranks = rankIntervals(ok.length, decided);
  return ok.map((c, i) => ({
    ...c,
    rank: rankLabel(ranks[i]!),
    rankLo: ranks[i]!.lo,
    rankHi: ranks[i]!.hi,
    beats: decided.filter(([w]) => w === i).map(([, l]) => ok[l]!.name),
  }));
}

/**
 * The overall answer, over the stacks one would pick (not static pages, which read Redis at build time only, nor
 * floors): each one's rank interval among them, from the ranking's own decided pairs (a subset of one Holm family, so
 * with its error rate); the fastest (rank 1 possible); and the others some of the fastest are not decided faster
 * than (empty: each of the fastest is decided faster than every other stack).
 */
export interface TopStacks {
  ranks: { name: string; rank: string }[];
  top: string[];
  notSeparated: string[];
}

/**
 * The overall answer over a ranking's stacks (TopStacks), or over those `keep` keeps (the stacks at their libraries'
 * defaults); null when fewer than two are ranked.
 */
export function topOf(all: RankedContender[], keep = (_: RankedContender) => true): TopStacks | null {
  const stacks = all.filter((c) => !c.static && !isFloor(c) && keep(c));
  if (stacks.length < 2) return null;
  const at = new Map(stacks.map((c, i) => [c.name, i]));
  const decided = stacks.flatMap((c, i) =>
    c.beats.flatMap((l) => (at.has(l) ? [[i, at.get(l)!] as [number, number]] : [])),
  );
  const g = rankIntervals(stacks.length, decided);
  const top = stacks.filter((_, i) => g[i]!.lo === 1);
  const notSeparated = stacks
    .filter((c) => !top.includes(c) && top.some((t) => !t.beats.includes(c.name)))
    .map((c) => c.name);
  return {
    ranks: stacks.map((c, i) => ({ name: c.name, rank: rankLabel(g[i]!) })),
    top: top.map((c) => c.name),
    notSeparated,
  };
}
