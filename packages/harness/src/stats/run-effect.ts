// The variance a whole run adds to a contender, beyond its launches' noise: τ², estimated from a
// family of changes between two runs. Use when each of many contenders is measured in two runs and
// tested for a change with its within-run variance only: that variance cannot see a contender that
// runs off its usual level in every launch of one run, and then flags it (measured: about 13% for
// deno-hono-node-redis in one of six A/A runs, docs/runs/answers-by-design.md). τ² is the smallest
// value at which the changes' median z², dᵢ²/(seᵢ² + τ²), falls to χ²₁'s median (0.4549): the
// median, not the mean, so that the few contenders that really changed do not count (genomic
// control's λ, Devlin & Roeder, Biometrics 55, 1999, taken as an added variance, as a
// random-effects τ² is, rather than as a factor). Assumes most contenders did not change, and the
// rest are at most half of them.
import jstat from 'jstat';
import { median } from 'simple-statistics';

/** χ²₁'s median: a z² that large is as likely as not under the null. */
export const CHI2_1_MEDIAN = jstat.chisquare.inv(0.5, 1);
/** Fewer changes than this give no estimate (τ² = 0): a median of a handful says little. */
export const MIN_FOR_RUN_EFFECT = 8;

/**
 * τ² for changes `d` (ln B − ln A, each against its reference) with within-run variances `se2`:
 * 0 when their median z² is already at most χ²₁'s median, or when fewer than MIN_FOR_RUN_EFFECT
 * are usable; else found by bisection (the median z² falls as τ² grows).
 */
export function runEffectVariance(d: number[], se2: number[]): number {
  const ok = d.map((_, i) => i).filter((i) => Number.isFinite(d[i]!) && se2[i]! > 0 && Number.isFinite(se2[i]!));
  if (ok.length < MIN_FOR_RUN_EFFECT) return 0;
  const medZ2 = (t2: number) => median(ok.map((i) => d[i]! ** 2 / (se2[i]! + t2)));
  if (medZ2(0) <= CHI2_1_MEDIAN) return 0;
  let [lo, hi] = [0, Math.max(...ok.map((i) => d[i]! ** 2)) / CHI2_1_MEDIAN];
  for (let k = 0; k < 60; k++) {
    const mid = (lo + hi) / 2;
    if (medZ2(mid) > CHI2_1_MEDIAN) lo = mid;
    else hi = mid;
  }
  return hi;
}
