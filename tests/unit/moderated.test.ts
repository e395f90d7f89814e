// The moderated t on a worked example. Expected values come from limma's fitFDist, squeezeVar and
// eBayes transcribed into Python with SciPy's digamma, polygamma and t
// (tests/fixtures/limma_reference.py), not from this code.
import { describe, expect, test } from 'bun:test';
import trigamma from '@stdlib/math-base-special-trigamma';
import { linearRegression } from 'simple-statistics';
import { fitPrior, moderatedT, replicates, squeeze, trigammaInverse } from '../../packages/harness/src/stats/moderated';

/** Five comparisons' per-round ln ratios: four alike, one (the last) far noisier. */
const ROUNDS = [
  [0.1, 0.02, 0.07],
  [-0.05, 0.04, -0.01, 0.03],
  [0.2, 0.26, 0.15],
  [0.01, -0.12, 0.05],
  [0.3, 0.05, -0.2],
];
/** Per comparison: posterior variance, df, p, and the 95% interval of the ratio (from the Python transcription). */
const EXPECTED = [
  {
    s2: 0.004398038668246794,
    df: 4.995578206657301,
    p: 0.15906355455543347,
    lo: 0.9654927161729308,
    hi: 1.1756055633573963,
  },
  {
    s2: 0.003966102790563149,
    df: 5.995578206657301,
    p: 0.9393028119102675,
    lo: 0.9281486619732602,
    hi: 1.0828141676385408,
  },
  {
    s2: 0.004958534347459385,
    df: 4.995578206657301,
    p: 0.004109825479338586,
    lo: 1.1038433022736387,
    hi: 1.36052229332321,
  },
  {
    s2: 0.006906924089484103,
    df: 4.995578206657301,
    p: 0.6941153986667813,
    lo: 0.8664286994743046,
    hi: 1.1089076801533362,
  },
  {
    s2: 0.028766255578775147,
    df: 4.995578206657301,
    p: 0.6313803475591744,
    lo: 0.8172714498801326,
    hi: 1.3522690878749535,
  },
];

describe('moderated t (empirical Bayes, after limma)', () => {
  const reps = ROUNDS.map(replicates);
  const prior = fitPrior(
    reps.map((r) => r.s2),
    reps.map((r) => r.df),
  );

  test('the prior: d0 and s0² by the method of moments on log s²', () => {
    expect(prior.d0).toBeCloseTo(2.9955782066573007, 6);
    expect(prior.s02).toBeCloseTo(0.006243896225074552, 9);
    expect(prior).toMatchObject({ n: 5, df_sum: 11 });
  });

  test('each comparison: shrunk variance, df own and prior, p and interval', () => {
    for (const [i, e] of EXPECTED.entries()) {
      const post = squeeze(reps[i]!.s2, reps[i]!.df, prior);
      expect(post.s2).toBeCloseTo(e.s2, 9);
      expect(post.df).toBeCloseTo(e.df, 6);
      const r = moderatedT(reps[i]!, prior, 0.95);
      expect(r.p).toBeCloseTo(e.p, 6);
      expect(r.lo).toBeCloseTo(e.lo, 6);
      expect(r.hi).toBeCloseTo(e.hi, 6);
    }
  });

  test('the noisy comparison keeps most of its own variance; the quiet ones borrow', () => {
    // The fifth varies by sd 25% per round: shrunk to 17%, not to the family's 8%.
    expect(Math.sqrt(squeeze(reps[4]!.s2, 2, prior).s2)).toBeGreaterThan(0.15);
    expect(squeeze(reps[0]!.s2, 2, prior).s2).toBeGreaterThan(reps[0]!.s2);
  });

  test('variances that agree beyond sampling: an infinite prior and the pooled variance', () => {
    const agree = fitPrior([0.01, 0.011, 0.0105, 0.0098], [2, 2, 2, 4]);
    expect(agree.d0).toBe(Infinity);
    expect(agree.s02).toBeCloseTo(0.01022, 12);
    expect(squeeze(0.05, 2, agree)).toEqual({ s2: agree.s02, df: 10 });
  });

  test("a finite prior's df are capped at the family's total, as limma caps them", () => {
    // d0 + own df = 40 + 3 = 43, more than the 12 df the family's variances had between them: 12.
    const prior = { d0: 40, s02: 0.01, scale: () => 0.01, n: 4, df_sum: 12 };
    const { s2, df } = squeeze(0.02, 3, prior);
    expect(df).toBe(12);
    expect(s2).toBeCloseTo((40 * 0.01 + 3 * 0.02) / 43, 15);
    // Below the cap, the sum.
    expect(squeeze(0.02, 3, { ...prior, d0: 5 }).df).toBe(8);
  });

  test('too little to say: one comparison of one round has no interval, and says what would give one', () => {
    const one = replicates([0.2]);
    const r = moderatedT(one, fitPrior([one.s2], [one.df]));
    expect(r).toMatchObject({ lo: 0, hi: Infinity, p: 1 });
    expect(r.short).toBe(
      'need ≥ 2 rounds of this comparison, or a family of ≥ 2 ' +
        'comparisons with 2 rounds, for any interval; have 1 round(s)',
    );
    // A comparison with one round borrows the family's variance when the family has one.
    expect(moderatedT(one, prior).hi).toBeLessThan(Infinity);
  });

  test('trigamma inverse: trigamma(trigammaInverse(x)) = x', () => {
    for (const x of [0.5, 0.05, 3, 1e-4, 50]) expect(trigamma(trigammaInverse(x)) / x).toBeCloseTo(1, 9);
    expect(trigammaInverse(0.5)).toBeCloseTo(2.459952948352307, 9);
  });
});

describe("the prior's trend and its floor", () => {
  // Ten comparisons of 5 rounds (4 df) whose log variances lie on a line in a covariate, with residuals of ±1.
  const x = Array.from({ length: 10 }, (_, i) => i);
  const r = [1.35, -1.65, 0.6, -0.9, 1.8, -1.2, 0.45, -1.5, 1.05, -0.75];
  const s2 = x.map((xi, i) => Math.exp(-6 + 0.2 * xi + r[i]!));
  const df = x.map(() => 4);

  test('with a covariate, the log variances vary about their fitted line on n − 2 df (intercept and slope)', () => {
    const prior = fitPrior(s2, df, x);
    const line = linearRegression(x.map((xi, i) => [xi, Math.log(s2[i]!)]));
    const rss = x.reduce((s, xi, i) => s + (Math.log(s2[i]!) - line.b - line.m * xi) ** 2, 0);
    expect(prior.slope).toBeCloseTo(line.m, 9);
    expect(trigamma(prior.d0 / 2)).toBeCloseTo(rss / (10 - 2) - trigamma(2), 9);
  });

  test('a trend from 10 comparisons on, none from 9', () => {
    expect(fitPrior(s2, df, x).slope).toBeDefined();
    expect(fitPrior(s2.slice(0, 9), df.slice(0, 9), x.slice(0, 9)).slope).toBeUndefined();
  });

  test('a variance of exactly 0 is raised to 1e-5 of the median, so the prior scales with the data', () => {
    const v = [0, 0.01, 0.02, 0.015, 0.03, 0.004];
    const d = v.map(() => 2);
    const prior = fitPrior(v, d);
    const raised = fitPrior([1e-5 * 0.015, ...v.slice(1)], d);
    expect(prior.d0).toBeCloseTo(raised.d0, 9);
    expect(prior.s02 / raised.s02).toBeCloseTo(1, 9);
    const scaled = fitPrior(
      v.map((y) => y * 1e-4),
      d,
    );
    expect(scaled.d0 / prior.d0).toBeCloseTo(1, 9);
    expect(scaled.s02 / (prior.s02 * 1e-4)).toBeCloseTo(1, 9);
  });
});
