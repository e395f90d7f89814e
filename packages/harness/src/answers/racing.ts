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

/** Rounds every contender gets before racing: at least 3 launches each (Kalibera & Jones). */
export const FIRST_ROUNDS = 3;

/**
 * The changes' procedure. A few pairs: each on its own rounds, with the signed-rank test. Many (a whole suite with
 * --against): the moderated t, the pairs lending each other a variance as the answers' comparisons do. With m pairs
 * Holm's first step asks p < α/m, and the signed-rank test's least p on n rounds is 2/2^n: 27 pairs need at least 11
 * rounds at the whole α, and more at an interim look, where a whole suite measured both sides makes 9 rounds in 30
 * minutes (docs/runs/against.md).
 */
export const MODERATED_PAIRS = 6;
export const changesProcedure = (pairs: number): Extract<ProcedureName, 'moderated-t' | 'signed-rank'> =>
  pairs >= MODERATED_PAIRS ? 'moderated-t' : 'signed-rank';

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
 * that the check's estimate (handicap.ts judgeHandicap, on every round) is not the one of the look that decided it.
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

/**
 * Look at the family at `alpha`, keep what earlier looks decided, record the look and who is still
 * open; the changes (--against, --handicap) likewise, as a family of their own with its own prior
 * and the --equal bound, at the same alpha. The rounds go to the contenders open in either.
 */
function lookOnce(results: Results, round: number, alpha: number, last: boolean): Answer[] {
  const k = (results.looks?.length ?? 0) + 1;
  const answers = outOfRace(
    results,
    look(results, results.family!.comparisons, k, alpha, results.settings.target_ci_pct, results.answers ?? []),
  );
  results.answers = answers;
  const open = openContenders(answers.filter((a) => !a.out));
  const ch = results.changes;
  if (ch?.comparisons.length) {
    // The pair design first: a look after the rounds measured both ways chooses it, and the decision rests on its
    // pairs.
    const design = chooseDesign(results, round);
    if (design?.chosen && design.asked === 'auto' && !ch.design?.chosen)
      info(`pair design after round ${round}: ${design.chosen === 'duet' ? 'duet' : 'alternating'}: ${design.why}`);
    if (design) ch.design = design;
    const t = runShare(results, round);
    const before = ch.looks ?? [];
    const chAlpha = last ? lastAlpha(before.map((l) => l.alpha)) : changesInterimAlpha(t, before.at(-1)?.share ?? 0);
    const of = {
      sink: ch,
      pairs: (c: Comparison) => designPairs(results, c.a, c.b),
      procedure: changesProcedure(ch.comparisons.length),
    };
    ch.procedure = of.procedure;
    ch.answers = outOfRace(
      results,
      look(results, ch.comparisons, k, chAlpha, equalMarginPct(results), ch.answers ?? [], of),
    );
    const chOpen = [...openContenders(ch.answers.filter((a) => !a.out)), ...stillMeasured(results, ch.answers)];
    (ch.looks ??= []).push({
      round,
      alpha: chAlpha,
      share: +Math.min(1, t).toFixed(4),
      open: chOpen,
      ...(last ? { last } : {}),
    });
    for (const n of chOpen) open.add(n);
  }
  results.open = [...open];
  (results.looks ??= []).push({ round, alpha, open: results.open, ...(last ? { last } : {}) });
  return answers;
}

/** The interim look after `round` (--runs auto, from FIRST_ROUNDS on): new answers, and who is still racing. */
export function lookAt(results: Results, round: number): void {
  const { settings } = results;
  // A resumed run passes its measured rounds again: each round is looked at once, and none after the last look.
  if (
    settings.runs !== 'auto' ||
    round < FIRST_ROUNDS ||
    !results.family ||
    results.looks?.some((l) => l.round === round || l.last)
  )
    return;
  const alpha = interimAlpha(round - FIRST_ROUNDS + 1);
  const answers = lookOnce(results, round, alpha, false);
  const n = (xs: Answer[], v: string) => xs.filter((a) => a.verdict === v && !a.out).length;
  const about = (xs: Answer[], bound: number) =>
    `${n(xs, 'faster')} decided, ${n(xs, 'equal')} equal within ±${bound}%, ${n(xs, 'undecided')} open`;
  const ch = results.changes?.answers ?? [];
  const chAlpha = results.changes?.looks?.at(-1)?.alpha ?? 0;
  const parts = [
    answers.length &&
      `${answers.length} comparisons (α ${alpha.toPrecision(2)}): ${about(answers, settings.target_ci_pct)}`,
    ch.length &&
      `${ch.length} change${ch.length > 1 ? 's' : ''} (α ${chAlpha.toPrecision(2)}): ` +
        about(ch, settings.against!.equal_pct),
  ];
  info(`look ${results.looks!.length} after round ${round}: ${parts.filter(Boolean).join('; ')}`);
}

/**
 * After the rounds, the last look: at what the interim looks left of alpha (a fixed --runs: its only look, at alpha).
 */
export function finalLook(results: Results): void {
  if (!results.family) return;
  if (results.looks?.some((l) => l.last)) {
    results.answers = outOfRace(results, results.answers ?? []);
    if (results.changes?.answers) results.changes.answers = outOfRace(results, results.changes.answers);
    return;
  }
  if (results.settings.runs !== 'auto') {
    [results.answers, results.looks] = [undefined, []];
    if (results.changes) [results.changes.answers, results.changes.looks] = [undefined, []];
  }
  const alpha = lastAlpha(
    (results.looks ?? []).map((l) => l.alpha),
    DECISION.alpha,
  );
  lookOnce(results, results.schedule?.rounds ?? 0, alpha, true);
}
