// The handicap check, judged: a known effect in every run (run/calibrate.ts sets it up). After the
// rounds, the run reports whether its own comparison of the handicapped contender and its twin saw
// the difference, and how big it measured it.
import { DECISION, familyPrior, noiseOf, roundRatios, windowPairs } from './decide';
import { moderatedT } from '../stats/moderated';
import type { Results } from '../model/results';

/** After the rounds: the handicapped contender against its twin, tested like every side-by-side comparison (the family's prior), at 95%. */
export function judgeHandicap(results: Results): void {
  const byName = new Map(results.contenders.map((c) => [c.name, c]));
  for (const h of results.handicap ?? []) {
    if (!h.compared_with) continue;
    const d = windowPairs(byName.get(h.contender), byName.get(h.compared_with));
    if (!d.a.length) continue;
    // The family's prior, at the side-by-side layout when the family is split by it (the pair is measured side by side);
    // the check itself is not part of the family it is fitted from.
    const family = results.family?.comparisons ?? [];
    const { prior, split } = familyPrior(family.map((c) => windowPairs(byName.get(c.a), byName.get(c.b))), family.map((c) => !!c.side_by_side));
    const r = moderatedT(roundRatios(d), prior, DECISION.handicapLevel, prior.scale(split ? [noiseOf(d), 1] : noiseOf(d)));
    h.measured = { ratio: r.ratio, lo: r.lo, hi: r.hi, level: r.level, p: r.p, pairs: d.a.length, rounds: r.n, df: r.df };
    h.detected = r.hi < 1;
  }
}
