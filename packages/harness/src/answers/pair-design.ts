// The pair design of the changes (--against, --handicap): alternating windows (each app alone, the
// two adjacent in time) or duet windows (both under load at the same moments: Bulej et al., ICPE
// 2020). With --pair auto both are measured in the first rounds; then the duet (half the cost per
// window pair) is used, unless its mean ln ratio narrows slower per second of measuring beyond
// chance, or the bias check finds the two disagree. Two apps sharing two CPUs under load may not
// split them as each runs alone, so a duet ratio is trusted only while it agrees with the
// alternating one.
import jstat from 'jstat';
import {
  windowSeconds,
  type ContenderResult,
  type PairDesign,
  type PairDesignFigures,
  type PairMode,
  type Results,
  type RunRecord,
} from '../model/results';
import { windowPairs, type WindowPairs } from './decide';
import { mean, sampleVariance } from '../stats/stats';

/** Pairs of contenders, this side first. */
type Sides = [ContenderResult | undefined, ContenderResult | undefined][];

/** A run's windows of one design (alone: by index; duet: those with the partner named). */
type Of<T> = (r: RunRecord, partner: string | undefined) => T[] | undefined;

/** A run's duet windows with `partner` (a raw server may meet each of its frameworks in a round). */
const duetWith = (r: RunRecord, partner: string | undefined) => r.duet?.filter((w) => w.partner === partner);

/**
 * Each round's duet windows of A and B, paired by index (the n-th of each side ran at the same moments). `byLaunch`:
 * a round's launches (DuetWindow.launch) as units of their own, as the default run's check is tested. `of`: the
 * figure paired (req/s, or CPU µs per request).
 */
export function duetPairs(
  a: ContenderResult | undefined,
  b: ContenderResult | undefined,
  byLaunch = false,
  of: 'rps' | 'cpu_us_per_req' = 'rps',
): WindowPairs {
  const byRound = (c: ContenderResult | undefined, partner: ContenderResult | undefined) =>
    new Map(
      (c?.points[0]?.runs ?? []).flatMap((r) => {
        const xs = r.fault ? [] : (duetWith(r, partner?.name) ?? []);
        return xs.length ? [[r.round, xs] as const] : [];
      }),
    );
  const wa = byRound(a, b);
  const wb = byRound(b, a);
  const out: WindowPairs = { a: [], b: [], rounds: 0, byRound: [], within: NaN };
  const within: number[] = [];
  for (const [round, xs] of wa) {
    const ys = wb.get(round);
    if (!ys) continue;
    const units = new Map<number, number[]>();
    for (const [j, x] of xs.entries()) {
      const y = ys[j];
      if (!(x[of] > 0 && y && y[of] > 0)) continue;
      out.a.push(x[of]);
      out.b.push(y[of]);
      const unit = byLaunch ? (x.launch ?? 0) : 0;
      units.set(unit, [...(units.get(unit) ?? []), Math.log(x[of]) - Math.log(y[of])]);
    }
    for (const d of units.values()) {
      out.rounds++;
      out.byRound.push(d);
      if (d.length > 1) within.push(sampleVariance(d));
    }
  }
  // The trend covariate of the prior: how much a window pair varies within a launch.
  out.within = within.length ? within.reduce((s, x) => s + x, 0) / within.length : NaN;
  return out;
}

/**
 * A design's figures over the changes' pairs: sd per window pair and per round (pooled, rounds − 1 df each), and its
 * cost.
 */
function figures(
  data: WindowPairs[],
  windowS: number,
  pairsPerRound: number,
  windowsPerPair: number,
): PairDesignFigures | undefined {
  let ssRound = 0;
  let dfRound = 0;
  let ssPair = 0;
  let dfPair = 0;
  let pairs = 0;
  for (const d of data) {
    const rounds = d.byRound.filter((r) => r.length);
    const means = rounds.map(mean);
    if (means.length > 1) {
      ssRound += sampleVariance(means) * (means.length - 1);
      dfRound += means.length - 1;
    }
    for (const r of rounds) {
      pairs += r.length;
      if (r.length > 1) {
        ssPair += sampleVariance(r) * (r.length - 1);
        dfPair += r.length - 1;
      }
    }
  }
  if (!dfRound) return undefined;
  const sdRound = Math.sqrt(ssRound / dfRound);
  const costPair = windowsPerPair * windowS;
  return {
    sd_pair: dfPair ? +Math.sqrt(ssPair / dfPair).toFixed(4) : NaN,
    sd_round: +sdRound.toFixed(4),
    df: dfRound,
    pairs,
    cost_pair_s: +costPair.toFixed(2),
    var_per_s: +(sdRound ** 2 * costPair * pairsPerRound).toExponential(3),
  };
}

/**
 * CPU per request as the detector instead of req/s: the sd of a window pair's ln(a ÷ b) CPU µs per
 * request, and of a round's mean, pooled over the pairs. A change in an app's own work moves both
 * by about as much, so the lower sd is the better detector.
 */
function cpuSd(pairs: Sides, of: Of<{ cpu_us_per_req?: number }>) {
  let ss = 0;
  let df = 0;
  let ssRound = 0;
  let dfRound = 0;
  for (const [a, b] of pairs) {
    const theirs = new Map(
      (b?.points[0]?.runs ?? []).filter((r) => !r.fault).map((r) => [r.round, of(r, a?.name) ?? []]),
    );
    const means: number[] = [];
    for (const r of (a?.points[0]?.runs ?? []).filter((x) => !x.fault)) {
      const ys = theirs.get(r.round) ?? [];
      const d = (of(r, b?.name) ?? []).flatMap((x, j) =>
        x.cpu_us_per_req! > 0 && (ys[j]?.cpu_us_per_req ?? 0) > 0
          ? [Math.log(x.cpu_us_per_req!) - Math.log(ys[j]!.cpu_us_per_req!)]
          : [],
      );
      if (d.length > 1) [ss, df] = [ss + sampleVariance(d) * (d.length - 1), df + d.length - 1];
      if (d.length) means.push(mean(d));
    }
    if (means.length > 1)
      [ssRound, dfRound] = [ssRound + sampleVariance(means) * (means.length - 1), dfRound + means.length - 1];
  }
  return df && dfRound
    ? { sd_pair_cpu: +Math.sqrt(ss / df).toFixed(4), sd_round_cpu: +Math.sqrt(ssRound / dfRound).toFixed(4) }
    : {};
}

/** Per round, the mean ln(a ÷ b) over the window pairs `of` gives (alone windows by index, or duet windows). */
function roundMeans(a: ContenderResult | undefined, b: ContenderResult | undefined, of: Of<{ rps: number }>) {
  const theirs = new Map(
    (b?.points[0]?.runs ?? []).filter((r) => !r.fault).map((r) => [r.round, of(r, a?.name) ?? []]),
  );
  const out = new Map<number, number>();
  for (const r of (a?.points[0]?.runs ?? []).filter((x) => !x.fault)) {
    const ys = theirs.get(r.round) ?? [];
    const d = (of(r, b?.name) ?? []).flatMap((x, j) =>
      x.rps > 0 && ys[j] && ys[j]!.rps > 0 ? [Math.log(x.rps) - Math.log(ys[j]!.rps)] : [],
    );
    if (d.length) out.set(r.round, mean(d));
  }
  return out;
}

/**
 * The bias check: per round measured both ways, duet − alternating mean ln ratio, over every pair; its mean and 95% t
 * interval.
 */
function biasCheck(pairs: Sides): PairDesign['bias'] {
  const d: number[] = [];
  for (const [a, b] of pairs) {
    const alone = roundMeans(a, b, (r) => r.windows);
    for (const [round, duet] of roundMeans(a, b, duetWith)) if (alone.has(round)) d.push(duet - alone.get(round)!);
  }
  if (d.length < 2) return undefined;
  const m = mean(d);
  const half = jstat.studentt.inv(0.975, d.length - 1) * Math.sqrt(sampleVariance(d) / d.length);
  return {
    mean: +m.toFixed(4),
    lo: +(m - half).toFixed(4),
    hi: +(m + half).toFixed(4),
    rounds: d.length,
    agree: m - half <= 0 && m + half >= 0,
  };
}

/**
 * The scale check: over every pair's rounds measured both ways, each centred on its pair's means, the duet ln ratio
 * against the alone one: their correlation and the reduced major axis slope (the sd ratio, signed by it). Where the
 * launches' own differences dominate both (a correlation near 1) it is the share of a difference alone that a duet
 * shows; each design's window noise pulls it its own way, so a low correlation makes it a rough figure.
 */
function scaleCheck(pairs: Sides): PairDesign['scale'] {
  const xs: number[] = [];
  const ys: number[] = [];
  for (const [a, b] of pairs) {
    const alone = roundMeans(a, b, (r) => r.windows);
    const both = [...roundMeans(a, b, duetWith)].filter(([round]) => alone.has(round));
    if (both.length < 2) continue;
    const [ma, md] = [mean(both.map(([k]) => alone.get(k)!)), mean(both.map(([, d]) => d))];
    for (const [k, d] of both) [xs.push(alone.get(k)! - ma), ys.push(d - md)];
  }
  if (xs.length < 3) return undefined;
  const ss = (v: number[]) => v.reduce((s, x) => s + x * x, 0);
  const [sxx, syy] = [ss(xs), ss(ys)];
  if (!(sxx > 0 && syy > 0)) return undefined;
  const corr = xs.reduce((s, x, i) => s + x * ys[i]!, 0) / Math.sqrt(sxx * syy);
  return { slope: +(Math.sign(corr) * Math.sqrt(syy / sxx)).toFixed(3), corr: +corr.toFixed(3), rounds: xs.length };
}

/** Seconds a window costs: its length and the pause before it (run/block.ts SETTLE_MS). */
const windowCostS = (r: Results) => windowSeconds(r.settings) + 0.25;

/** Both designs' figures over `sides` (each pair's two contenders, this side first), the bias and scale checks. */
function measuredWays(r: Results, sides: Sides): Pick<PairDesign, 'alternate' | 'duet' | 'bias' | 'scale'> {
  const k = r.settings.windows ?? 1;
  const withCpu = (x: PairDesignFigures | undefined, of: Of<{ cpu_us_per_req?: number }>) =>
    x && { ...x, ...cpuSd(sides, of) };
  const alternate = withCpu(
    figures(
      sides.map(([a, b]) => windowPairs(a, b)),
      windowCostS(r),
      k,
      2,
    ),
    (x) => x.windows,
  );
  const duet = withCpu(
    figures(
      sides.map(([a, b]) => duetPairs(a, b)),
      windowCostS(r),
      k,
      1,
    ),
    duetWith,
  );
  const bias = biasCheck(sides);
  const scale = scaleCheck(sides);
  return {
    ...(alternate ? { alternate } : {}),
    ...(duet ? { duet } : {}),
    ...(bias ? { bias } : {}),
    ...(scale ? { scale } : {}),
  };
}

/**
 * The design after `round` (from the rounds so far): forced by --pair, or (auto) the duet, unless the
 * bias check says the two disagree or the duet's variance per second is higher beyond chance.
 */
export function chooseDesign(r: Results, round: number): PairDesign | undefined {
  const ch = r.changes;
  const asked = r.settings.against?.pair ?? 'alternate';
  if (!ch?.comparisons.length) return undefined;
  const byName = new Map(r.contenders.map((c) => [c.name, c]));
  const f = measuredWays(
    r,
    ch.comparisons.map((c) => [byName.get(c.a), byName.get(c.b)]),
  );
  const bias = f.bias;
  const base = { asked, ...f };
  if (asked !== 'auto') return { ...base, chosen: asked, round: null, why: `--pair ${asked}` };
  // Once chosen it stays, with the figures it was chosen on (later rounds measure mostly the chosen design);
  // the bias check goes on over every round measured both ways (the first cycle of a round that measures alone).
  if (ch.design?.chosen) return { ...ch.design, ...(bias ? { bias } : {}), ...(f.scale ? { scale: f.scale } : {}) };
  if (!f.alternate || !f.duet) return { ...base, chosen: null, round: null, why: 'not yet measured both ways' };
  const noisier = duetNoisier(f.duet, f.alternate);
  const pick: PairMode = (bias && !bias.agree) || noisier ? 'alternate' : 'duet';
  const ratio = f.alternate.var_per_s / f.duet.var_per_s;
  const perSecond = `(variance per second: alternating ${f.alternate.var_per_s}, duet ${f.duet.var_per_s})`;
  const why =
    bias && !bias.agree
      ? `the designs disagree (duet − alternating ${pctOf(bias.mean)}, ${pctOf(bias.lo)}…${pctOf(bias.hi)}): ` +
        'alternating, each app alone'
      : noisier
        ? `alternate narrows the interval ${(1 / ratio).toFixed(2)}× faster per second, beyond chance ${perSecond}`
        : `duet narrows the interval ${ratio.toFixed(2)}× faster per second ${perSecond}` +
          (ratio < 1 ? ', within chance of no worse: duet, at half the cost per window pair' : '');
  return { ...base, chosen: pick, round, why };
}

/**
 * Is the duet's variance per second higher than alternating's beyond chance (one-sided F test at 5% on the
 * two sd per round, their costs per pair taken as known)? The first rounds give each sd about 2 df, so a
 * variance ratio of 3 is well within chance: without this test the choice was a coin toss that half the time
 * gave up a design at half the cost per pair (docs/runs/against.md).
 */
function duetNoisier(duet: PairDesignFigures, alt: PairDesignFigures, atCost = alt.cost_pair_s / duet.cost_pair_s) {
  const f = duet.sd_round ** 2 / alt.sd_round ** 2;
  return f > atCost * jstat.centralF.inv(0.95, duet.df, alt.df);
}

/** Units (rounds, or launches) a signed-rank interval needs to exclude no change at 95%: the least p is 2 / 2^n. */
export const MIN_RANK_ROUNDS = 6;

/**
 * The default run's handicap check, measured both ways in every cycle (run/block.ts), is judged on its windows alone
 * (answers/handicap.ts). `duet`: its duet windows are tested too (signed-rank, as a change is, each launch a unit) and
 * said beside; `alternate`: they are not, because the bias check finds the designs disagree, the duet's sd per round
 * is higher than alternating's beyond chance (both are measured, so at equal cost), or it has too few launches.
 */
export function checkDesign(r: Results, contender: string, twin: string): PairDesign {
  const byName = new Map(r.contenders.map((c) => [c.name, c]));
  const [a, b] = [byName.get(contender), byName.get(twin)];
  const ways = measuredWays(r, [[a, b]]);
  const { alternate: alt, duet, bias } = ways;
  const sds = sdsText(duet, alt);
  const units = duet ? duetPairs(a, b, true).rounds : 0;
  const alone = !duet
    ? 'no duet windows'
    : bias && !bias.agree
      ? `the designs disagree (duet − alternating ${pctOf(bias.mean)}, ${pctOf(bias.lo)}…${pctOf(bias.hi)})`
      : units < MIN_RANK_ROUNDS
        ? `${units} launches with duets, fewer than the ${MIN_RANK_ROUNDS} its test needs`
        : alt && duetNoisier(duet, alt, 1)
          ? `alternating is narrower beyond chance (${sds})`
          : null;
  const base = { asked: 'auto' as const, ...ways, round: null };
  return alone ? { ...base, chosen: 'alternate', why: alone } : { ...base, chosen: 'duet', why: sds };
}

const sdsText = (duet?: PairDesignFigures, alt?: PairDesignFigures) => {
  const sd = (x: PairDesignFigures | undefined) => (x ? `${(x.sd_round * 100).toFixed(1)}%` : 'none');
  return `sd per round: duet ${sd(duet)}, alternating ${sd(alt)}`;
};

const pctOf = (x: number) => `${x >= 0 ? '+' : '−'}${(Math.abs(x) * 100).toFixed(1)}%`;

/**
 * The window pairs a change's decision uses: the chosen design's (alternating until one is chosen).
 * A duet chosen under --pair auto whose bias check later disagrees gives way to the alternating
 * pairs, which the rounds that measure each app alone (run/plan.ts aloneRound) keep measuring.
 */
export function designPairs(r: Results, a: string, b: string): WindowPairs {
  const byName = new Map(r.contenders.map((c) => [c.name, c]));
  const d = r.changes?.design;
  const duet = d?.chosen === 'duet' && (d.asked === 'duet' || (d.bias?.agree ?? true));
  return duet ? duetPairs(byName.get(a), byName.get(b)) : windowPairs(byName.get(a), byName.get(b));
}

/**
 * The share of a difference alone that the run's duet windows show, where its changes' decisions rest on them and its
 * scale check reads it clearly (correlation from 0.5, slope under 0.9); null otherwise. A ratio x read off those duets
 * is about x^(1 / share) alone.
 */
export function aloneScale(r: Results): number | null {
  const d = r.changes?.design;
  const sc = d?.scale;
  const onDuets = d?.chosen === 'duet' && (d.asked === 'duet' || (d.bias?.agree ?? true));
  return onDuets && sc && sc.corr >= 0.5 && sc.slope > 0.2 && sc.slope < 0.9 ? sc.slope : null;
}

/** The share k of a difference alone that duets show, and a ratio read off them taken to its size alone. */
export interface AloneScale {
  k: number;
  of(x: number): number;
}

/** A ratio x read off duets that show a share k of a difference alone is about x^(1 / k) alone. */
export const aloneAt = (k: number): AloneScale => ({ k, of: (x) => Math.exp(Math.log(x) / k) });

/**
 * The bound a change's interval must lie within to be "equal", in the units of its window pairs: --equal, or, where the
 * decisions rest on duets that show a share k of a difference alone (aloneScale), the duet ratio that is ±--equal
 * alone: (1 + equal)^k − 1. An A/A whose duets read within ±0.9% at k = 0.55 is equal within ±1.6% alone.
 */
export function equalMarginPct(r: Results): number {
  const pct = r.settings.against!.equal_pct;
  const k = aloneScale(r);
  return k ? ((1 + pct / 100) ** k - 1) * 100 : pct;
}
