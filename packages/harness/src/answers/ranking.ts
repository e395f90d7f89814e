// The ranking: every contender that passed its gates, in order of its estimate, with the rank
// interval its decided pairwise comparisons allow.
import type { ContenderResult, Results } from '../model/results';
import { isHandicapped } from '../model/questions';
import { rankIntervals, rankLabel } from '../stats/stats';
import { testRatio } from '../stats/procedures';
import { DECISION, familyPrior, holmLevels, noiseOf, windowPairs } from './decide';

export interface RankedContender extends ContenderResult {
  /** "1", or "2–5": the best and worst rank consistent with the decided pairwise comparisons. */
  rank: string;
  rankLo: number;
  rankHi: number;
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
  return ok.map((c, i) => ({ ...c, rank: rankLabel(ranks[i]!), rankLo: ranks[i]!.lo, rankHi: ranks[i]!.hi }));
}
