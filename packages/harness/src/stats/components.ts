// Variance components of a nested benchmark, after libkalibera's Data (Kalibera & Jones,
// "Rigorous benchmarking in reasonable time", ISMM 2013). Use to decide where repetitions
// buy the most precision: more measured windows per launch, or more launches.
//
// Levels count from 1 at the lowest. Here level 1 is the measured windows within one launch
// and level 2 the launches (one per round) of a contender; r_i is the number of level-i
// repetitions inside one level-(i+1) unit. The module is agnostic about the values (the call
// site passes log req/s) and general over any number of levels.
import { mean, sampleVariance } from './stats';

/** Values nested by level, the highest level outermost: per launch, its windows (2 levels). */
export type Nested = number[] | Nested[];

/** What the levels are called in this benchmark (level 1 first); higher levels are numbered. */
const UNITS = [
  ['window', 'windows'],
  ['launch', 'launches'],
] as const;
const unit = (i: number, plural = true) => UNITS[i - 1]?.[plural ? 1 : 0] ?? `level-${i} ${plural ? 'units' : 'unit'}`;

const chunks = (xs: number[], size: number) =>
  Array.from({ length: xs.length / size }, (_, k) => xs.slice(k * size, (k + 1) * size));
/** Mean over the contenders that have an estimate. */
const meanFinite = (xs: number[]) => mean(xs.filter(Number.isFinite));

/** Drops empty units (a launch that measured no window) before balancing. */
const prune = (x: Nested): Nested => (Array.isArray(x[0]) ? (x as Nested[]).map(prune).filter((c) => c.length > 0) : x);

/** Per depth (outermost first), the smallest number of children of any unit at that depth. */
function shapeOf(data: Nested): number[] {
  const shape: number[] = [];
  for (let units: Nested[] = [data]; units.length > 0 && Array.isArray(units[0]); units = units.flat() as Nested[]) {
    shape.push(Math.min(...units.map((u) => u.length)));
  }
  return shape;
}

/** The values, balanced by keeping the first shape[d] children at each depth, flattened in order. */
const trimmedFlat = (data: Nested, shape: number[]): number[] =>
  shape.length === 1
    ? (data as number[]).slice(0, shape[0])
    : (data as Nested[]).slice(0, shape[0]).flatMap((u) => trimmedFlat(u, shape.slice(1)));

export class Components {
  /** Warnings that change how the components should be read, each with its consequence. */
  readonly warnings: string[] = [];

  /**
   * From S_i² and T_i² (index i − 1) and the repetition counts r_i (r[i − 1]); usually built by
   * fromNested or pooledComponents.
   */
  constructor(
    private readonly s2: number[],
    private readonly t2: number[],
    readonly r: number[],
  ) {
    for (let i = 1; i <= r.length; i++) {
      if (r[i - 1]! < 2)
        this.warnings.push(`need ≥ 2 ${unit(i)} to estimate the ${unit(i, false)} component; have ${r[i - 1]}`);
      if (i > 1 && t2[i - 1]! <= 0) {
        this.warnings.push(
          `T2 ≤ 0 at level ${i}: ${unit(i)} vary no more than ${unit(i - 1)} ` +
            `predict; treat the ${unit(i, false)} component as 0`,
        );
      }
    }
  }

  /**
   * From values nested by level. Unbalanced data is trimmed to the smallest count at each level,
   * keeping each unit's first repetitions (a launch's first windows: every launch then contributes
   * windows at the same offsets after warm-up), rather than dropping launches: a contender has
   * only a few launches and each one counts at level 2.
   */
  static fromNested(data: Nested): Components {
    const pruned = prune(data);
    const r = shapeOf(pruned).reverse();
    let units = trimmedFlat(pruned, [...r].reverse()); // level-1 units: the values
    const s2 = r.map((ri) => {
      const groups = chunks(units, ri); // the level-(i+1) units, each holding r_i level-i means
      units = groups.map(mean);
      return mean(groups.map(sampleVariance));
    });
    const t2 = s2.map((s, k) => (k === 0 ? s : s - s2[k - 1]! / r[k - 1]!));
    return new Components(s2, t2, r);
  }

  /** Number of levels, n. */
  get n(): number {
    return this.r.length;
  }

  /**
   * S_i²: the mean, over the level-(i+1) units, of the sample variance of their r_i level-i means.
   * The paper calls it biased: it estimates τ_i² plus the variance lower levels add to a mean.
   * (S_1² is the mean within-launch variance of windows; S_2² the variance of the launch means.)
   */
  S2(i: number): number {
    return this.s2[i - 1]!;
  }

  /**
   * T_i², the unbiased estimate of level i's own variance τ_i²: T_1² = S_1²,
   * T_i² = S_i² − S_{i−1}²/r_{i−1}. The ISMM paper printed T_{i−1}² in place of S_{i−1}²;
   * the revised paper and libkalibera use S, as here. Can be ≤ 0 (see warnings); returned as
   * estimated, not clamped.
   */
  T2(i: number): number {
    return this.t2[i - 1]!;
  }

  /**
   * The paper's optimal repetition count at level i (1 ≤ i < n): r_i = ⌈√((c_{i+1}/c_i) · T_i²/T_{i+1}²)⌉,
   * where costs[i − 1] = c_i is the cost of one more level-i repetition, not counting those below it
   * (c_1: one measured window; c_2: starting a launch, with its warm-up). T² ≤ 0 counts as 0; when
   * T_{i+1}² is 0 the formula is infinite and `cap` is returned. At least 1; NaN when a T² is unknown.
   */
  optimalReps(i: number, costs: number[], cap = 20): number {
    const [ti, tnext] = [Math.max(0, this.T2(i)), Math.max(0, this.T2(i + 1))];
    if (tnext === 0) return cap;
    return Math.min(cap, Math.max(1, Math.ceil(Math.sqrt(((costs[i]! / costs[i - 1]!) * ti) / tnext))));
  }
}

/**
 * Components pooled over contenders: the mean of each S_i² and T_i² over the contenders that have
 * it, with the smallest r_i. Use for planning: one contender's three launches estimate T_2² poorly.
 */
export function pooledComponents(contenders: Nested[]): Components {
  const each = contenders.map((c) => Components.fromNested(c));
  const levels = Array.from({ length: Math.max(0, ...each.map((c) => c.n)) }, (_, k) => k + 1);
  return new Components(
    levels.map((i) => meanFinite(each.map((c) => c.S2(i)))),
    levels.map((i) => meanFinite(each.map((c) => c.T2(i)))),
    levels.map((i) => Math.min(...each.map((c) => c.r[i - 1] ?? 0))),
  );
}
