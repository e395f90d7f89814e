// Racing (Maron & Moore 1994; F-Race, irace): every contender gets the design's first rounds;
// after each round from then on the family is looked at, and the next round measures only the
// contenders of comparisons still undecided. Each look spends its own share of alpha
// (decide.ts lookAlpha), so looking after every round does not inflate the error rate; the
// null simulation in tests/unit/racing.test.ts measures it.
import { look, lookAlpha, openContenders, type Answer } from './decide';
import type { Results } from './results';
import { info, type Suite } from './suite';

/** Rounds every contender gets before racing: at least 3 launches each (Kalibera & Jones). */
export const FIRST_ROUNDS = 3;

/** Comparisons whose contender failed or was found invalid can never be answered: no rounds go to them. */
function outOfRace(results: Results, answers: Answer[]): Answer[] {
  const status = new Map(results.contenders.map((c) => [c.name, c.status]));
  return answers.map((a) => {
    const bad = [a.a, a.b].find((n) => !['ok', 'incomplete'].includes(status.get(n) ?? 'failed'));
    return bad ? { ...a, verdict: 'undecided', out: `${bad} is ${status.get(bad) ?? 'not measured'}` } : a;
  });
}

/** The look after `round` (--runs auto, from FIRST_ROUNDS on): new answers, and who is still racing. */
export function lookAt(suite: Suite, round: number): void {
  const { results, settings } = suite;
  // A resumed run passes its measured rounds again: each round is looked at once, so alpha is spent once.
  if (settings.runs !== 'auto' || round < FIRST_ROUNDS || !results.family || results.looks?.some((l) => l.round === round)) return;
  const k = round - FIRST_ROUNDS + 1;
  const alphaK = lookAlpha(k, true);
  const answers = outOfRace(results, look(results, results.family.comparisons, k, alphaK, settings.target_ci_pct, results.answers ?? []));
  results.answers = answers;
  results.open = [...openContenders(answers.filter((a) => !a.out))];
  (results.looks ??= []).push({ round, alpha: alphaK, open: results.open });
  const n = (v: string) => answers.filter((a) => a.verdict === v && !a.out).length;
  info(`look ${k} after round ${round} (α ${alphaK.toPrecision(2)} over ${answers.length} comparisons): ${n('faster')} decided, ${n('equal')} equal within ±${settings.target_ci_pct}%, ${n('undecided')} open`);
}

/** A fixed --runs looks once, at the end, at the whole alpha. */
export function finalLook(results: Results): void {
  if (!results.family) return;
  const adaptive = results.settings.runs === 'auto';
  if (adaptive && results.answers) {
    results.answers = outOfRace(results, results.answers);
    return;
  }
  results.answers = outOfRace(results, look(results, results.family.comparisons, 1, lookAlpha(1, adaptive), results.settings.target_ci_pct));
  results.looks = [{ round: results.schedule?.rounds ?? 0, alpha: lookAlpha(1, adaptive), open: [] }];
}
