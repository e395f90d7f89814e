// One pair's per-unit log ratios adjusted for a covariate measured in the same units: least squares of
// d_i = δ + β·x_i + ε_i, and δ (the difference where the covariate is equal on both sides, x = 0) with its
// t interval on n − 2 degrees of freedom (analysis of covariance; Montgomery, Design and Analysis of
// Experiments, 15.3). Where the machine moves the covariate, β·x takes out the part of each unit's difference
// the machine put there, and δ keeps the rest; where what is compared moves it too, δ is the difference at an
// equal covariate, not the one measured.
import jstat from 'jstat';
import type { ModeratedRatio } from './moderated';
import { mean } from './stats';

/** What the test says of a pair: the moderated t's fields, with the covariate's slope and correlation. */
export type CovariateRatio = Omit<ModeratedRatio, 'procedure'> & {
  procedure: 'covariate-t';
  slope: number;
  /** Correlation of the units' log ratios with their covariate. */
  corr: number;
};

const procedure = 'covariate-t' as const;

/** δ of d = δ + β·x at `level`, with β and the residual sd; no interval under 4 units or from a flat covariate. */
export function covariateT(d: number[], x: number[], level = 0.95): CovariateRatio {
  const n = d.length;
  if (x.length !== n) throw new Error(`covariate: ${x.length} covariates for ${n} units`);
  const [mx, md] = [mean(x), mean(d)];
  const sxx = x.reduce((s, v) => s + (v - mx) ** 2, 0);
  const sxy = x.reduce((s, v, i) => s + (v - mx) * (d[i]! - md), 0);
  const sdd = d.reduce((s, v) => s + (v - md) ** 2, 0);
  const slope = sxx > 0 ? sxy / sxx : 0;
  const delta = md - slope * mx;
  const df = n - 2;
  const rss = d.reduce((s, v, i) => s + (v - delta - slope * x[i]!) ** 2, 0);
  const sd = df > 0 ? Math.sqrt(rss / df) : NaN;
  const corr = sxx > 0 && sdd > 0 ? sxy / Math.sqrt(sxx * sdd) : 0;
  const base = { procedure, ratio: Math.exp(delta), level, n, own_df: df, df, sd, slope, corr };
  if (n < 4 || !(sxx > 0)) {
    const short = `need at least 4 units with a covariate that varies: ${n} unit(s)`;
    return { ...base, p: 1, lo: 0, hi: Infinity, short };
  }
  const se = sd * Math.sqrt(1 / n + (mx * mx) / sxx);
  const t = jstat.studentt.inv(1 - (1 - level) / 2, df);
  const p = se > 0 ? 2 * (1 - jstat.studentt.cdf(Math.abs(delta / se), df)) : delta === 0 ? 1 : 0;
  return { ...base, p, lo: Math.exp(delta - t * se), hi: Math.exp(delta + t * se) };
}
