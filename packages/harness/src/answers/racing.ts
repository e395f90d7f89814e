// Racing (Maron & Moore 1994; F-Race, irace): every contender gets the design's first rounds;
// after each round from then on the family is looked at, and the next round measures only the
// contenders of comparisons still undecided. The interim looks share a tenth of alpha and the
// last look, after the rounds, spends the rest (decide.ts DECISION), so looking after every
// round does not inflate the error rate; the null simulation in tests/unit/racing.test.ts
// measures it.
import { changesInterimAlpha, interimAlpha, lastAlpha, look, openContenders, DECISION } from './decide';
import type { Comparison } from '../model/questions';
import type { Answer, Results } from '../model/results';
import { info } from '../system/progress';
import type { ProcedureName } from '../stats/procedures';
import { chooseDesign, designPairs, equalMarginPct } from './pair-design';
import { isBase } from '../model/questions';
import { roundsForInterval } from '../stats/signed-rank';

/** Rounds every contender gets before racing: at least 3 launches each (Kalibera & Jones). */
export const FIRST_ROUNDS = 3;

/**
 * The changes' procedure. A few pairs: each on its own rounds, with the signed-rank test. Many (a whole suite with
 * --against): the moderated t, the pairs lending each other a variance as the answers' comparisons do. With m pairs
 * "faster" asks p < α/m, and the signed-rank test's least p on n rounds is 2/2^n: 27 pairs need at least 11
 * rounds at the whole α, and more at an interim look, where a whole suite measured both sides makes 9 rounds in 30
 * minutes (docs/runs/against.md).
 */
export const MODERATED_PAIRS = 6;
export const changesProcedure = (pairs: number): Extract<ProcedureName, 'moderated-t' | 'signed-rank'> =>
  pairs >= MODERATED_PAIRS ? 'moderated-t' : 'signed-rank';

/**
 * The fewest rounds in which a change can be answered: with the signed-rank test, the level of "faster" (α/m, the
 * interim looks' tenth of α spent) must have an interval; the moderated t's prior lends the rest after the first
 * rounds.
 */
export const changesRoundsNeeded = (pairs: number) =>
  changesProcedure(pairs) === 'signed-rank'
    ? Math.max(FIRST_ROUNDS, roundsForInterval(1 - (DECISION.alpha * (1 - DECISION.interimShare)) / pairs))
    : FIRST_ROUNDS;

/** Comparisons whose contender failed or was found invalid can never be answered: no rounds go to them. */
function outOfRace(results: Results, answers: Answer[]): Answer[] {
  const status = new Map(results.contenders.map((c) => [c.name, c.status]));
  return answers.map((a) => {
    const bad = [a.a, a.b].find((n) => !['ok', 'incomplete'].includes(status.get(n) ?? 'failed'));
    return bad ? { ...a, verdict: 'undecided', out: `${bad} is ${status.get(bad) ?? 'not measured'}` } : a;
  });
}

/**
 * How far the run is through what it may use: its budget's share of the time, or its round cap's share of the rounds.
 */
function runShare(results: Results, round: number): number {
  const { budget_s, max_runs } = results.settings;
  const from = results.measured_from ?? results.started_at;
  if (budget_s > 0 && from) return (Date.now() - Date.parse(from)) / 1000 / budget_s;
  return max_runs > 0 ? round / max_runs : 1;
}

/**
 * A --handicap pair (NAME against NAME@base) is a known effect: decided, it is still measured to the budget's end, so
 * that the check's estimate (handicap.ts handicapJudged, on every round) is not the one of the look that decided it.
 * Stopped at its first decision, its estimates came out 0.6 to 2.6 points beyond the injected effect, all the same way
 * (docs/runs/against.md): a run that stops when an interval first clears no change stops on a large estimate.
 */
function stillMeasured(results: Results, answers: Answer[]): string[] {
  return (results.handicap ?? []).flatMap((h) =>
    h.compared_with &&
    isBase(h.compared_with) &&
    answers.some((a) => !a.out && a.verdict === 'faster' && a.a === h.contender && a.b === h.compared_with)
      ? [h.contender, h.compared_with]
      : [],
  );
}

/** What a look adds to a run's results: its answers, the looks so far, who is still racing, the changes' likewise. */
export type LookPatch = Pick<Results, 'answers' | 'open' | 'looks' | 'prior' | 'prior_side_by_side' | 'changes'>;

/**
 * Look at the family at `alpha`, keep what earlier looks decided, record the look and who is still
 * open; the changes (--against, --handicap) likewise, as a family of their own with its own prior
 * and the --equal bound, at the same alpha. The rounds go to the contenders open in either. Returned, never written
 * into `results` (run/schedule.ts and run/finish.ts store it).
 */
function lookOnce(results: Results, round: number, alpha: number, last: boolean): LookPatch {
  const k = (results.looks?.length ?? 0) + 1;
  const sink: Pick<Results, 'prior' | 'prior_side_by_side'> = {};
  const answers = outOfRace(
    results,
    look(results, results.family!.comparisons, k, alpha, results.settings.target_ci_pct, results.answers ?? [], {
      sink,
    }),
  );
  const open = openContenders(answers.filter((a) => !a.out));
  const changes = changesLook(results, round, k, last);
  for (const n of changes?.looks?.at(-1)?.open ?? []) open.add(n);
  const opened = [...open];
  return {
    answers,
    // Absent from this look's fit: none, so an earlier look's is not left behind when the patch is stored.
    prior: sink.prior,
    prior_side_by_side: sink.prior_side_by_side,
    ...(changes ? { changes } : {}),
    open: opened,
    looks: [...(results.looks ?? []), { round, alpha, open: opened, ...(last ? { last } : {}) }],
  };
}

/** The changes' look (their pair design first: a look after the rounds measured both ways chooses it). */
function changesLook(results: Results, round: number, k: number, last: boolean): Results['changes'] {
  const before = results.changes;
  if (!before?.comparisons.length) return undefined;
  const design = chooseDesign(results, round);
  if (design?.chosen && design.asked === 'auto' && !before.design?.chosen)
    info(`pair design after round ${round}: ${design.chosen === 'duet' ? 'duet' : 'alternating'}: ${design.why}`);
  const ch = { ...before, ...(design ? { design } : {}) };
  const t = runShare(results, round);
  const looks = ch.looks ?? [];
  const chAlpha = last ? lastAlpha(looks.map((l) => l.alpha)) : changesInterimAlpha(t, looks.at(-1)?.share ?? 0);
  const procedure = changesProcedure(ch.comparisons.length);
  const sink: Pick<Results, 'prior' | 'prior_side_by_side'> = {};
  // The design chosen at this look decides which pairs the look rests on.
  const view = { ...results, changes: ch };
  const of = { sink, pairs: (c: Comparison) => designPairs(view, c.a, c.b), procedure };
  const answers = outOfRace(
    results,
    look(results, ch.comparisons, k, chAlpha, equalMarginPct(view), ch.answers ?? [], of),
  );
  const chOpen = [...openContenders(answers.filter((a) => !a.out)), ...stillMeasured(results, answers)];
  const { prior: _, ...rest } = ch;
  return {
    ...rest,
    ...sink,
    procedure,
    answers,
    looks: [
      ...looks,
      { round, alpha: chAlpha, share: +Math.min(1, t).toFixed(4), open: chOpen, ...(last ? { last } : {}) },
    ],
  };
}

/**
 * The interim look after `round` (--runs auto, from FIRST_ROUNDS on): new answers, and who is still racing; null when
 * no look is due.
 */
export function lookAt(results: Results, round: number): LookPatch | null {
  const { settings } = results;
  // A resumed run passes its measured rounds again: each round is looked at once, and none after the last look.
  if (
    settings.runs !== 'auto' ||
    round < FIRST_ROUNDS ||
    !results.family ||
    results.looks?.some((l) => l.round === round || l.last)
  )
    return null;
  const alpha = interimAlpha(round - FIRST_ROUNDS + 1);
  const patch = lookOnce(results, round, alpha, false);
  info(`look ${patch.looks!.length} after round ${round}: ${lookWords(patch, alpha, settings)}`);
  return patch;
}

/** What a look decided, as its progress line says it: the family's comparisons, and the changes (--against). */
function lookWords(patch: LookPatch, alpha: number, settings: Results['settings']): string {
  const answers = patch.answers ?? [];
  const n = (xs: Answer[], v: string) => xs.filter((a) => a.verdict === v && !a.out).length;
  // An answer with a side out (failed, invalid) is none of the three: counted apart, so the counts add up.
  const about = (xs: Answer[], bound: number) => {
    const out = xs.filter((a) => a.out).length;
    return (
      `${n(xs, 'faster')} decided, ${n(xs, 'equal')} equal within ±${bound}%, ${n(xs, 'undecided')} open` +
      (out ? `, ${out} not answered (a side out)` : '')
    );
  };
  const ch = patch.changes?.answers ?? [];
  const chAlpha = patch.changes?.looks?.at(-1)?.alpha ?? 0;
  const parts = [
    answers.length &&
      `${answers.length} comparisons (α ${alpha.toPrecision(2)}): ${about(answers, settings.target_ci_pct)}`,
    ch.length &&
      `${ch.length} change${ch.length > 1 ? 's' : ''} (α ${chAlpha.toPrecision(2)}): ` +
        about(ch, settings.against!.equal_pct),
  ];
  return parts.filter(Boolean).join('; ') || 'no comparison among the contenders selected, so nothing to decide';
}

/**
 * After the rounds, the last look: at what the interim looks left of alpha (a fixed --runs: its only look, at alpha).
 * Null without a family.
 */
export function finalLook(results: Results): LookPatch | null {
  if (!results.family) return null;
  if (results.looks?.some((l) => l.last)) {
    const changes = results.changes?.answers
      ? { ...results.changes, answers: outOfRace(results, results.changes.answers) }
      : results.changes;
    return { answers: outOfRace(results, results.answers ?? []), ...(changes ? { changes } : {}) };
  }
  // A fixed --runs: its only look is this one, at the whole alpha.
  const fixed = results.settings.runs !== 'auto';
  const from: Results = fixed
    ? {
        ...results,
        answers: undefined,
        looks: [],
        ...(results.changes ? { changes: { ...results.changes, answers: undefined, looks: [] } } : {}),
      }
    : results;
  const alpha = lastAlpha(
    (from.looks ?? []).map((l) => l.alpha),
    DECISION.alpha,
  );
  const round = from.schedule?.rounds ?? 0;
  const patch = lookOnce(from, round, alpha, true);
  // Said as the interim looks are: what the α left after them decides (an answer open at the last interim look may be
  // decided here).
  const after = round ? `round ${round}` : 'the rounds';
  info(`final look after ${after}: ${lookWords(patch, alpha, results.settings)}`);
  return patch;
}
