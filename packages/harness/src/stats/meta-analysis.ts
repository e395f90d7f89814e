// Pooling one comparison's estimates from several runs on several machines. Use when the runs measured the same
// contenders (the same inputs) and each gives one estimate of ln A − ln B with its standard error; the day moves a
// pair by more than a run's own error says (τr, between runs), and a machine can move it more (τm, between machines).
//
//   model   y_j = θ_machine(j) + e_boot(j) + ε_j: e ~ N(0, τr²) per boot, ε ~ N(0, se_j²) its own error. θ_m
//           is the difference on machine m; the answer is about μ = the mean of θ_m over the machines measured,
//           each machine counting once however many runs it has. Where the answer holds beyond them is the prediction
//           for a new machine, with τm (below). Why the machines measured and not the population of machines: with
//           two or three machines, the population mean has one or two df; a family's level (α/47) on 2 df needs a t
//           near 30, and borrowing τm from the family (below) is anti-conservative for the comparisons machines move
//           most (a null simulation made false claims in 14% of families with 1 comparison in 6 moved 8% by the
//           machine).
//   τr      Drawn per boot (model/kept.ts bootsOf): the runs of one boot are merged first (mergeBoots), since runs of
//           one boot move together and runs of different days apart (scripts/pool-boots.ts reads both from kept
//           records).
//           Each comparison learns its own τr from its own boots, starting from a stated prior (statedPrior): the
//           comparisons do not share one, because a few of them move far between days and the rest do not.
//           A comparison whose boots disagree puts its weight on large τr and keeps a wide interval. The
//           restricted likelihood (each machine's θ integrated out) learns τr only from machines with 2 boots or
//           more.
//   given τr  θ̂_m is the inverse-variance mean of machine m's runs, μ̂ the mean of the θ̂_m,
//           var(μ̂) = Σ var(θ̂_m) / M², on Satterthwaite's df for the runs' estimated se's (each on its own df).
//   answer  the posterior of μ is a mixture of those t's over the grid, weighted by the prior × the likelihood: its
//           tail gives the p of "no difference", its quantiles the interval. The family's α/m uses these p's; a
//           simulation with heterogeneous runs and machines checks that the family's error rate holds
//           (tests/unit/pool.test.ts).
//   τm and prediction  where a new run on a new machine is expected (Higgins, Thompson & Spiegelhalter, JRSS A 172,
//           2009), at 95%: the mixture widened by τr² + τm²(1 + 1/M), on a t of at most M − 1 df, τm learnt from
//           the comparison's own M machine means from a stated prior (statedMachinePrior); stated from five
//           machines of the comparison on (answers/across-runs.ts).
//
// A run gives y = mean ln ratio over all its rounds and se = its moderated t's posterior sd / √rounds (not the
// estimate at the look that stopped it: that one leans away from 0).
import jstat from 'jstat';
import { studentT } from './moderated';
import type { RatioEstimate } from './stats';

/** One run's estimate of a comparison: ln A − ln B, its standard error and df, and where it was measured. */
export interface RunEstimate {
  y: number;
  se: number;
  df: number;
  /** Which run (for the report) and which machine (a machine is a CPU model, CPU count, kernel and placement). */
  run: string;
  machine: string;
}

export interface PooledRatio extends RatioEstimate {
  procedure: 'pool';
  /** Runs and machines it rests on. */
  n: number;
  machines: number;
  /** The df of the component that carries most weight (for the report). */
  df: number;
  /** The posterior sd of μ (ln). */
  se: number;
  /** Posterior means of the between-run and between-machine sd of the ln ratio (τm 0 with one machine measured). */
  tau: number;
  tau_machine: number;
  /** Where a new run (on a new machine, where the family has two or more) is expected to fall, at 95%. */
  prediction: { lo: number; hi: number; level: number } | null;
  /** Set when no interval exists: what would fix it. */
  short?: string;
}

const procedure = 'pool' as const;
// biome-ignore lint/suspicious/noExplicitAny: jstat's typings lack erf
const erf: (x: number) => number = (jstat as any).erf ?? (jstat as any).jStat.erf;

/**
 * The τ grid (ln units): 0 to 0.3, with more points where run-to-run and machine effects were measured (2–3% between
 * runs of one VM, tens of % in the middle of the table between CPU kinds; docs/runs/pool.md).
 */
export const TAU_GRID = [0, 0.005, 0.01, 0.015, 0.02, 0.03, 0.04, 0.05, 0.065, 0.08, 0.1, 0.13, 0.17, 0.22, 0.3];

const usable = (runs: RunEstimate[]) =>
  runs.every((r) => Number.isFinite(r.y) && r.se > 0 && Number.isFinite(r.se) && r.df > 0);

/** A comparison's runs by machine. */
function byMachine(runs: RunEstimate[]): RunEstimate[][] {
  const out = new Map<string, RunEstimate[]>();
  for (const r of runs) out.set(r.machine, [...(out.get(r.machine) ?? []), r]);
  return [...out.values()];
}

/** One grid point's fit of one comparison: μ̂, var(μ̂), its df, and the log restricted likelihood of τr. */
export interface Fit {
  mu: number;
  v: number;
  df: number;
  logL: number;
  /** Each machine's mean and its variance. */
  theta: { y: number; v: number }[];
}

/** At τr: each machine's inverse-variance mean, their mean, and τr's restricted likelihood. */
export function fitAt(machines: RunEstimate[][], tr: number): Fit {
  const m = machines.length;
  let logL = 0;
  let v = 0;
  let mu = 0;
  // Satterthwaite's denominator: each run's estimated share of var(μ̂), squared, over its df.
  let denom = 0;
  const theta: Fit['theta'] = [];
  for (const rs of machines) {
    const d = rs.map((r) => r.se * r.se + tr * tr);
    const sw = d.reduce((s, x) => s + 1 / x, 0);
    const y = rs.reduce((s, r, i) => s + r.y / d[i]!, 0) / sw;
    theta.push({ y, v: 1 / sw });
    mu += y / m;
    v += 1 / sw / (m * m);
    logL += -0.5 * (d.reduce((s, x) => s + Math.log(x), 0) + Math.log(sw));
    logL += -0.5 * rs.reduce((s, r, i) => s + (r.y - y) ** 2 / d[i]!, 0);
    rs.forEach((r, i) => {
      const share = (r.se / d[i]! / sw / m) ** 2;
      denom += (share * share) / Math.max(1, r.df);
    });
  }
  const df = denom > 0 ? Math.min(1e6, (v * v) / denom) : 1e6;
  return { mu, v, df, logL, theta };
}

/** The restricted log likelihood of τm from machine means (their variances given), μ integrated out. */
function machineLogL(theta: Fit['theta'], tm: number): number {
  const d = theta.map((t) => t.v + tm * tm);
  const sw = d.reduce((s, x) => s + 1 / x, 0);
  const mu = theta.reduce((s, t, i) => s + t.y / d[i]!, 0) / sw;
  return (
    -0.5 *
    (d.reduce((s, x) => s + Math.log(x), 0) + Math.log(sw) + theta.reduce((s, t, i) => s + (t.y - mu) ** 2 / d[i]!, 0))
  );
}

/** The family's priors on τr and τm over TAU_GRID (weights), and what they were learnt from. */
export interface PoolPrior {
  run: number[];
  machine: number[];
  /** Comparisons each was learnt from: with a machine of 2 runs or more, with 2 machines or more. */
  n: number;
  nMachine: number;
  /** Machines in the family (1: no prediction beyond the machine measured). */
  machines: number;
}

const relative = (logs: number[]) => {
  const max = Math.max(...logs);
  return logs.map((x) => Math.exp(x - max));
};

/**
 * The stated prior on the sd between boots of one machine, before its runs on other boots are
 * compared: a half-normal of scale 6% on the grid (a weakly informative prior for few runs, as in Friede et al.,
 * Biometrical Journal 59, 2017). Its scale is the τ between runs of different days that scripts/pool-boots.ts reads
 * from the kept records (docs/runs/pool.md keeps the figures); the 0–2.4% measured there between quiet runs of
 * one boot is within a boot. The suite's simulations at the measured spread hold their 5% with it
 * (tests/unit/pool.test.ts).
 */
export const STATED_RUN_SCALE = 0.06;
/** A half-normal of `scale` on TAU_GRID: each point's density times the share of the line it stands for. */
export const halfNormalOnGrid = (scale: number) =>
  TAU_GRID.map((t, g) => {
    // The grid is denser near 0: each point stands for half the gaps to its neighbours.
    const width = ((TAU_GRID[g + 1] ?? t) - (TAU_GRID[g - 1] ?? t)) / 2;
    return Math.exp(-0.5 * (t / scale) ** 2) * width;
  }).map((x, _, all) => x / all.reduce((s, y) => s + y, 0));
export const STATED_RUN_PRIOR = halfNormalOnGrid(STATED_RUN_SCALE);

/**
 * The sd between runs of one boot, beyond each run's own error: stated, 2% (0–2.4% measured between quiet runs of
 * one boot, docs/runs/pool.md). A run under another load moves some comparisons further than quiet runs of its boot do
 * (scripts/pool-boots.ts on kept records; docs/runs/pool.md).
 */
export const TAU_IN_BOOT = 0.02;

/**
 * A comparison's runs with those of one boot merged into one estimate: their inverse-variance mean, each
 * run's variance its own plus TAU_IN_BOOT², on Satterthwaite's df. The run effect is drawn mostly per boot: two runs
 * of one boot move apart far less than two runs of different days (stats/run-effect.ts over their differences,
 * scripts/pool-boots.ts), so two runs of one boot are one draw of τr, not two.
 */
export function mergeBoots(runs: RunEstimate[], bootOf: (run: string) => string): RunEstimate[] {
  const boots = new Map<string, RunEstimate[]>();
  for (const r of runs) {
    const key = `${r.machine}|${bootOf(r.run)}`;
    boots.set(key, [...(boots.get(key) ?? []), r]);
  }
  return [...boots.values()].map((rs) => {
    // A boot with a run that cannot be pooled is that run, whatever the runs' order: the comparison says why.
    if (!usable(rs)) return rs.find((r) => !usable([r]))!;
    const w = rs.map((r) => 1 / (r.se * r.se + TAU_IN_BOOT * TAU_IN_BOOT));
    const sw = w.reduce((s, x) => s + x, 0);
    const v = 1 / sw;
    // Each run's estimated share of the merged variance, (wᵢ / Σw)² seᵢ², squared, over its df (τ is stated,
    // not estimated).
    const denom = w.reduce((s, x, i) => s + ((x / sw) ** 2 * rs[i]!.se ** 2) ** 2 / Math.max(1, rs[i]!.df), 0);
    return {
      y: rs.reduce((s, r, i) => s + r.y * w[i]!, 0) / sw,
      se: Math.sqrt(v),
      df: Math.min(1e6, (v * v) / denom),
      run: rs[0]!.run,
      machine: rs[0]!.machine,
    };
  });
}

/**
 * The prior on τr (the sd between boots of one machine) that each comparison starts from: the stated prior, the same
 * for every comparison, each learning its own τr from its own boots (posterior below: the prior × its restricted
 * likelihood over its boots, so the evidence counts boots, not runs or comparisons). Not one τr shared by the family:
 * between days a few comparisons move far and the rest within their noise, and one τr learnt from them all fits
 * neither (too narrow for the first: the keeps' simulation in tests/unit/pool.test.ts fails with it). τm is 0: the
 * prior is of one machine.
 */
export function statedPrior(scale = STATED_RUN_SCALE): PoolPrior {
  const run = scale === STATED_RUN_SCALE ? STATED_RUN_PRIOR : halfNormalOnGrid(scale);
  return { run, machine: TAU_GRID.map((t) => (t === 0 ? 1 : 0)), n: 0, nMachine: 0, machines: 1 };
}

/**
 * The stated prior on τm, the sd between machines: a half-normal of scale 11% (the family's τ between machines of the
 * published pool, about 11%; docs/runs/pool.md), over the stated prior on τr. A prediction for an unmeasured machine
 * starts from it, each comparison learning its own τm from its own machines, so its evidence counts machines.
 */
export const STATED_MACHINE_SCALE = 0.11;
export function statedMachinePrior(): PoolPrior {
  return { ...statedPrior(), machine: halfNormalOnGrid(STATED_MACHINE_SCALE), machines: 2 };
}

/**
 * A prior on τr updated by a comparison's runs of other inputs on the same configuration (`history`, each
 * RunEstimate.machine naming one inputs version, a boot's runs merged): each version's own θ integrated out, so only
 * how its boots spread tells of τr. Versions measured on one boot tell nothing.
 */
export function withHistory(prior: PoolPrior, history: RunEstimate[]): PoolPrior {
  const groups = byMachine(history).filter((g) => g.length >= 2);
  if (!groups.length || !usable(history)) return prior;
  const rel = relative(TAU_GRID.map((tr) => fitAt(groups, tr).logL));
  const raw = prior.run.map((p, g) => p * rel[g]!);
  const z = raw.reduce((s, x) => s + x, 0);
  return { ...prior, run: raw.map((x) => x / z) };
}

/** A posterior: a mixture of t's (location, scale, df, weight). */
export type Mixture = { mu: number; s: number; df: number; w: number }[];

const cdf = (m: Mixture, x: number) =>
  m.reduce((acc, c) => {
    const z = (x - c.mu) / c.s;
    return acc + c.w * (c.df >= 1e4 ? 0.5 * (1 + erf(z / Math.SQRT2)) : studentT.cdf(z, c.df));
  }, 0);

/** The mixture's mean, and its variance with each component's scale² standing for its own (a t's is wider). */
function moments(m: Mixture): { mean: number; variance: number } {
  const mean = m.reduce((s, c) => s + c.w * c.mu, 0);
  return { mean, variance: m.reduce((s, c) => s + c.w * (c.s * c.s + (c.mu - mean) ** 2), 0) };
}

/** The mixture's density, as a function of x: each t's constant computed once (a t on ≥ 1e4 df is a normal). */
function pdfOf(m: Mixture): (x: number) => number {
  const parts = m.map((c) => {
    const nu = c.df >= 1e4 ? Infinity : c.df;
    const k =
      nu === Infinity
        ? 1 / Math.sqrt(2 * Math.PI)
        : Math.exp(jstat.gammaln((nu + 1) / 2) - jstat.gammaln(nu / 2)) / Math.sqrt(nu * Math.PI);
    return { ...c, nu, k: (c.w * k) / c.s };
  });
  return (x) =>
    parts.reduce((acc, c) => {
      const z = (x - c.mu) / c.s;
      return acc + c.k * (c.nu === Infinity ? Math.exp((-z * z) / 2) : (1 + (z * z) / c.nu) ** (-(c.nu + 1) / 2));
    }, 0);
}

/**
 * The mixture's q-quantile, to about 1e-10, in a bracket of its components' ±40 sd widened until it holds q: Newton's
 * steps from a normal's quantile at the mixture's mean and sd, each kept inside the bracket the steps so far have left
 * (a bisection where a step would leave it; Numerical Recipes' rtsafe). Bisection alone took 30–60 steps, and the
 * quantiles were three quarters of a pooled page's time; these take a handful.
 */
export function quantile(m: Mixture, q: number): number {
  let [a, b] = [Math.min(...m.map((c) => c.mu - 40 * c.s)), Math.max(...m.map((c) => c.mu + 40 * c.s))];
  // A t of few df holds more than q beyond 40 sd at the levels a pooled family reaches (1.7e-5 at 3 df): widen.
  for (let i = 0; i < 60 && cdf(m, a) >= q; i++) a -= b - a;
  for (let i = 0; i < 60 && cdf(m, b) <= q; i++) b += b - a;
  if (cdf(m, a) >= q) return a;
  if (cdf(m, b) <= q) return b;
  const { mean, variance } = moments(m);
  let x = Math.min(b, Math.max(a, mean + Math.sqrt(variance) * jstat.normal.inv(q, 0, 1)));
  const pdf = pdfOf(m);
  for (let i = 0; i < 200 && b - a > 1e-12; i++) {
    const fx = cdf(m, x) - q;
    if (fx < 0) a = x;
    else b = x;
    // Where F equals q over a stretch, the quantile is its left end (the least x with F(x) ≥ q): bisect toward it.
    const newton = fx === 0 ? NaN : x - fx / pdf(x);
    const next = newton > a && newton < b ? newton : (a + b) / 2;
    if (Math.abs(next - x) < 1e-10) return next;
    x = next;
  }
  return x;
}

/** The posterior of μ, and of a new run (on a new machine where the family has two), under the family's priors. */
export function posterior(runs: RunEstimate[], prior: PoolPrior) {
  const machines = byMachine(runs);
  const fits = TAU_GRID.map((tr) => fitAt(machines, tr));
  const raw = relative(fits.map((f) => f.logL)).map((l, g) => l * prior.run[g]!);
  const z = raw.reduce((s, x) => s + x, 0);
  const w = raw.map((x) => x / z);
  const g = w.map((x, i) => [x, i] as const).filter(([x]) => x > 1e-6);
  const kept = g.reduce((s, [x]) => s + x, 0);
  const mu: Mixture = g.map(([x, i]) => ({ mu: fits[i]!.mu, s: Math.sqrt(fits[i]!.v), df: fits[i]!.df, w: x / kept }));
  const tau = g.reduce((s, [x, i]) => s + (x / kept) * TAU_GRID[i]!, 0);
  // τm given the machine means at the mean τr: the family's prior, and this comparison's own machines.
  const heaviest = g.reduce((a, b) => (b[0] > a[0] ? b : a))[1];
  const own = machines.length > 1 ? relative(TAU_GRID.map((tm) => machineLogL(fits[heaviest]!.theta, tm))) : null;
  const rawM = prior.machine.map((p, i) => p * (own ? own[i]! : 1));
  const zM = rawM.reduce((s, x) => s + x, 0);
  const wM = rawM.map((x) => x / zM);
  const tauM = TAU_GRID.reduce((s, t, i) => s + t * wM[i]!, 0);
  // Where a new run falls: asked only for a prediction, and the costliest part (|μ's mixture| × |TAU_GRID| t's).
  const next = (): Mixture => nextRun(mu, g, wM, machines.length);
  return { mu, next, tau, tauM, df: fits[heaviest]!.df };
}

/** A new run on a new machine: μ's mixture widened by τr (the weights `g`) and τm (the weights `wM`). */
function nextRun(mu: Mixture, g: (readonly [number, number])[], wM: number[], machines: number): Mixture {
  const next: Mixture = mu.flatMap((c, k) =>
    TAU_GRID.flatMap((tm, i) => {
      const tr = TAU_GRID[g[k]![1]]!;
      // A new machine: its own effect (τm²), and the mean of the M measured standing for the population's (τm²/M),
      // on a t of at most M − 1 df where τm is not 0 (M machines tell of τm on M − 1).
      const s = Math.sqrt(c.s * c.s + tr * tr + tm * tm * (1 + 1 / machines));
      const df = tm > 0 ? Math.min(c.df, Math.max(1, machines - 1)) : c.df;
      return wM[i]! > 1e-6 ? [{ ...c, s, df, w: c.w * wM[i]! }] : [];
    }),
  );
  const sumNext = next.reduce((s, c) => s + c.w, 0);
  for (const c of next) c.w /= sumNext;
  return next;
}

/** The two-sided p of μ = 0: twice the smaller posterior tail. */
const pOf = (m: Mixture) => {
  const below = cdf(m, 0);
  return Math.min(1, 2 * Math.min(below, 1 - below));
};

export interface Pooled {
  /** The two-sided p of "no difference". */
  p: number;
  /** The posterior mean of τr (NaN where nothing pooled). */
  tau: number;
  /** The answer at `level`: the ratio, its interval and where a new run falls. */
  /** `predict` false: no prediction interval (null), which costs most of the work. */
  at(level: number, predict?: boolean): PooledRatio;
}

/** One comparison pooled over its runs under a prior on τr and τm: its p now, its interval at any level. */
export function poolRuns(runs: RunEstimate[], prior: PoolPrior): Pooled {
  const k = runs.length;
  const machines = new Set(runs.map((r) => r.machine)).size;
  if (!k || !usable(runs)) {
    const short = k
      ? 'a run without a finite estimate, standard error and df cannot be pooled'
      : 'no run measured this comparison';
    const base = { procedure, ratio: NaN, lo: 0, hi: Infinity, p: 1, n: k, machines, df: 0 };
    const none = { se: NaN, tau: NaN, tau_machine: NaN, prediction: null, short };
    return { p: 1, tau: NaN, at: (level) => ({ ...base, level, ...none }) };
  }
  const post = posterior(runs, prior);
  const { mean, variance } = moments(post.mu);
  const p = pOf(post.mu);
  let prediction: PooledRatio['prediction'] = null;
  return {
    p,
    tau: post.tau,
    at: (level, predict = true) => {
      if (predict && !prediction) {
        const next = post.next();
        prediction = { lo: Math.exp(quantile(next, 0.025)), hi: Math.exp(quantile(next, 0.975)), level: 0.95 };
      }
      return {
        procedure,
        ratio: Math.exp(mean),
        lo: Math.exp(quantile(post.mu, (1 - level) / 2)),
        hi: Math.exp(quantile(post.mu, 1 - (1 - level) / 2)),
        level,
        p,
        n: k,
        machines,
        df: +Math.min(post.df, 9999).toFixed(1),
        se: Math.sqrt(variance),
        tau: post.tau,
        tau_machine: post.tauM,
        prediction: predict ? prediction : null,
      };
    },
  };
}
