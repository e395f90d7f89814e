// Statistics over repeated runs. Medians, resampling and the normal CDF come from
// simple-statistics; the Mann-Whitney p-value (exact for small samples) is written here
// because no maintained JS library has it.
import { cumulativeStdNormalProbability, max, median, min, quantileSorted, sampleWithReplacement } from 'simple-statistics';

/** Seeded PRNG (mulberry32) so a results.json always reproduces the same intervals. */
export function seededRandom(seed = 0x5eed): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Percentile bootstrap confidence interval of the median. */
export function bootstrapMedianCI(xs: number[], level = 0.95, resamples = 10_000, random = seededRandom()): [number, number] {
  if (xs.length === 0) return [NaN, NaN];
  if (xs.length === 1) return [xs[0]!, xs[0]!];
  const medians = new Float64Array(resamples);
  for (let i = 0; i < resamples; i++) medians[i] = median(sampleWithReplacement(xs, xs.length, random));
  const sorted = Array.from(medians).sort((a, b) => a - b);
  const alpha = (1 - level) / 2;
  return [quantileSorted(sorted, alpha), quantileSorted(sorted, 1 - alpha)];
}

export interface Summary {
  median: number;
  min: number;
  max: number;
  ci95: [number, number];
}

export function summarize(xs: number[]): Summary {
  if (xs.length === 0) return { median: NaN, min: NaN, max: NaN, ci95: [NaN, NaN] };
  return { median: median(xs), min: min(xs), max: max(xs), ci95: bootstrapMedianCI(xs) };
}

/** (max - min) / median: the run-to-run spread the README reports. */
export const spread = (xs: number[]) => (xs.length ? (max(xs) - min(xs)) / median(xs) : NaN);

function combinations(n: number, k: number, visit: (picked: number[]) => void, start = 0, picked: number[] = []) {
  if (picked.length === k) return visit(picked);
  for (let i = start; i <= n - (k - picked.length); i++) {
    picked.push(i);
    combinations(n, k, visit, i + 1, picked);
    picked.pop();
  }
}

function ranks(values: number[]): number[] {
  const order = values.map((v, i) => [v, i] as const).sort((a, b) => a[0] - b[0]);
  const r = new Array<number>(values.length);
  for (let i = 0; i < order.length; ) {
    let j = i;
    while (j + 1 < order.length && order[j + 1]![0] === order[i]![0]) j++;
    for (let k = i; k <= j; k++) r[order[k]![1]] = (i + j) / 2 + 1; // ties share the mean rank
    i = j + 1;
  }
  return r;
}

/**
 * Two-sided Mann-Whitney U test. Exact permutation p-value (ties handled by mid-ranks)
 * for the small samples a benchmark has; normal approximation when there are too many
 * arrangements to enumerate.
 */
export function mannWhitneyU(a: number[], b: number[]): { u: number; p: number } {
  const n1 = a.length;
  const n2 = b.length;
  if (n1 === 0 || n2 === 0) return { u: NaN, p: 1 };
  const r = ranks([...a, ...b]);
  const u = r.slice(0, n1).reduce((s, x) => s + x, 0) - (n1 * (n1 + 1)) / 2;
  const mean = (n1 * n2) / 2;
  const n = n1 + n2;
  let total = 1;
  for (let i = 0; i < n1; i++) total = (total * (n - i)) / (i + 1);
  if (total <= 200_000) {
    const observed = Math.abs(u - mean);
    let extreme = 0;
    combinations(n, n1, (picked) => {
      let s = 0;
      for (const i of picked) s += r[i]!;
      if (Math.abs(s - (n1 * (n1 + 1)) / 2 - mean) >= observed - 1e-9) extreme++;
    });
    return { u, p: extreme / total };
  }
  // Normal approximation with tie correction and continuity correction.
  const counts = new Map<number, number>();
  for (const x of r) counts.set(x, (counts.get(x) ?? 0) + 1);
  let tie = 0;
  for (const t of counts.values()) tie += t ** 3 - t;
  const sd = Math.sqrt(((n1 * n2) / 12) * (n + 1 - tie / (n * (n - 1))));
  if (sd === 0) return { u, p: 1 };
  const z = (Math.abs(u - mean) - 0.5) / sd;
  return { u, p: Math.min(1, 2 * (1 - cumulativeStdNormalProbability(z))) };
}
