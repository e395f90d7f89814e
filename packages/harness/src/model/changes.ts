// results.json's records of a run of pairs (--against, --handicap) and of the handicap check and
// the run's design. Part of the schema in results.ts.
import type { Comparison } from './questions';
import type { ProcedureName } from '../stats/procedures';
import type { Answer, RatioEstimate } from './answer';

/**
 * The changes family (--against, --handicap): each contender against its twin from the other
 * side, measured side by side in every cycle of its block, decided as a family of its own: the
 * signed-rank test over rounds (stats/signed-rank.ts), α/m for each pair at every look, α spent
 * over the looks by the run's time, and the --equal bound. `a` is this checkout's side (head), `b`
 * the other (base). `prior` is what the moderated t would have lent (recorded, not used).
 */
export interface Changes {
  comparisons: Comparison[];
  answers?: Answer[];
  prior?: { d0: number | null; s0: number; comparisons: number; df: number; slope?: number };
  /**
   * Each look at the changes: its level, the share of the run's budget (or round cap) used by then, who stayed open.
   */
  looks?: { round: number; alpha: number; share?: number; open: string[]; last?: boolean }[];
  /** The procedure the pairs are tested with (answers/racing.ts changesProcedure); older results: signed-rank. */
  procedure?: Extract<ProcedureName, 'moderated-t' | 'signed-rank'>;
  /**
   * The pair design: both measured in the first rounds, then the one with the narrower interval per minute
   * (answers/pair-design.ts).
   */
  design?: PairDesign;
  /** --against a ref or folder: which selected contenders had the same inputs on both sides (run/inputs.ts). */
  inputs?: ChangeInputs;
}

/**
 * What --against compares of a contender on both sides besides its app folder and any build script its bench.json
 * names outside it: paths from the checkout's root. run/inputs.ts hashes the first four (inputsOf, of packages/stream
 * and packages/raw-reader the files the contender runs) and compares bunfig.toml, how bun installs, apart
 * (installConfig); the report lists them from here.
 */
export const CHECKOUT_INPUTS = {
  hashed: ['packages/stream', 'packages/raw-reader', 'package.json', 'bun.lock'],
  install: 'bunfig.toml',
} as const;

/**
 * The contenders whose inputs (app folder, CHECKOUT_INPUTS, build script) are the same on both sides, and whether
 * they were measured anyway: when none differs (an A/A), or with --pair-unchanged.
 */
export interface ChangeInputs {
  unchanged: string[];
  measured_unchanged: boolean;
}

/**
 * The two ways a pair is measured: alternating (each app alone, the two windows adjacent) or duet (both under load at
 * once).
 */
export type PairMode = 'alternate' | 'duet';

/** What one design showed over the changes: the sd of a round's mean ln ratio, and what a round of it costs. */
export interface PairDesignFigures {
  /** sd of one window pair's ln ratio, and of a round's mean ln ratio, pooled over the pairs (rounds − 1 df each). */
  sd_pair: number;
  sd_round: number;
  df: number;
  pairs: number;
  /** Seconds of measuring one window pair costs (alternating: two windows; duet: one). */
  cost_pair_s: number;
  /**
   * The variance of a mean per second spent on it, sd_round² × seconds a round of this design takes: lower is better.
   */
  var_per_s: number;
  /** The same sds for CPU µs per request instead of req/s: which of the two is the quieter detector. */
  sd_pair_cpu?: number;
  sd_round_cpu?: number;
}

export interface PairDesign {
  /** --pair: auto (measure both, then choose), or one forced. */
  asked: 'auto' | PairMode;
  /** The design the decisions use; null before there are rounds of both. */
  chosen: PairMode | null;
  /** After which round it was chosen, and why. */
  round: number | null;
  why: string;
  alternate?: PairDesignFigures;
  duet?: PairDesignFigures;
  /**
   * The bias check, over the rounds measured both ways: the mean of (duet − alternating) per-round
   * ln ratio with its 95% t interval. When the interval excludes 0 the designs disagree, and
   * alternating (each app alone, as the absolute figures are) is used.
   */
  bias?: { mean: number; lo: number; hi: number; rounds: number; agree: boolean };
  /**
   * The scale check, over the same rounds: how a round's duet ln ratio follows its alone one as launches come out
   * faster or slower (each pair's rounds centred on their means). `slope` is the reduced major axis, sd(duet) ÷
   * sd(alone) signed by `corr`: about 1 when a duet shows a difference at its size alone; below 1 when two apps sharing
   * the CPUs under load shrink it (the slower one gets more of the CPUs).
   */
  scale?: { slope: number; corr: number; rounds: number };
}

/**
 * A test's chance of detecting a known size at the se it measured (stats/moderated.ts tPower), and about how many
 * rounds would raise that chance to `target`.
 */
export interface PowerFigures {
  chance: number;
  target: number;
  rounds_for_target: number;
}

export interface HandicapCheck {
  /**
   * The handicapped contender, and the one whose CPU per request calibrated it (its plain twin, or itself with
   * --handicap).
   */
  contender: string;
  calibrated_on: string;
  compared_with: string | null;
  pct: number;
  /**
   * The calibrating launch, per request: the tree's CPU, and (since the burn is sized on them) wall time and the
   * busiest thread's CPU.
   */
  cpu_us_per_req: number;
  wall_us_per_req?: number;
  main_thread_us_per_req?: number;
  /** µs per request the same thread was runnable but waiting for a CPU (absent in older results). */
  main_thread_wait_us_per_req?: number;
  /**
   * µs of CPU burnt per request (answers/handicap.ts burnUs): the event loop's share of a CPU while runnable, times
   * its wall time grown by pct and by MAX_BUSY, less the time it was busy and waited for a CPU; older runs: the same
   * without the wait, or pct of cpu_us_per_req.
   */
  us: number;
  /** req/s ratio a saturated single-threaded app should show: 1 / (1 + pct/100). */
  injected_ratio: number;
  /**
   * The default run's check, measured both ways in every cycle: both designs' figures and the bias check
   * (answers/pair-design.ts checkDesign); `chosen` duet: its duets are tested beside its windows alone, on which it is
   * judged. A --handicap pair uses the changes' design.
   */
  design?: PairDesign;
  /** Its comparison with its twin, as an answer is tested (rounds and df: results since the moderated t). */
  measured?: RatioEstimate & {
    pairs: number;
    rounds?: number;
    /** The launches the test took as its units, where a round held more than one (the default run's duet check). */
    launches?: number;
    df?: number;
    /** The default run's check: the standard error of its ln ratio (the answers' moderated t), for pooling it. */
    se?: number;
    /** The default run's check: the chance its test had of detecting the injected size, at the se it measured. */
    power?: PowerFigures;
    /** The default run's check: the windows it was tested on (alone; `other`: its duets). */
    on?: PairMode;
    /**
     * The default run's check on its windows alone: its test. moderated-t: the answers' own procedure, each round's
     * mean ln ratio with the run's family prior (absent in older results: the same). Older results: signed-rank over
     * its launches, or covariate-t (each launch's ln ratio taken at an equal share of the time the two event loops
     * waited for a CPU, answers/handicap.ts deniedOf).
     */
    procedure?: ProcedureName;
    /** Older results, covariate-t: its slope and correlation on the covariate, and signed-rank without it. */
    covariate?: { slope: number; corr: number; unadjusted: { ratio: number; lo: number; hi: number; p: number } };
    /**
     * The check judged other ways, said beside it and never its verdict: the answers' procedure on all its windows
     * alone (its extra pairs alone each cycle too), signed-rank over its launches, and least squares on the CPU wait
     * share (covariate-t) where every window recorded it. The wait is moved by the burn itself, so the adjusted figure
     * leans toward the injected one (docs/methodology.md).
     */
    diagnostics?: {
      procedure: ProcedureName;
      ratio: number;
      lo: number;
      hi: number;
      p: number;
      detected: boolean;
      pairs: number;
      slope?: number;
      corr?: number;
    }[];
  };
  /** The default run's check, where its duets could be judged: their test, said beside `measured` (not its verdict). */
  other?: HandicapCheck['measured'];
  detected?: boolean;
  /**
   * The default run's check, where its duets are tested: the same windows' CPU µs per request (twin ÷ plain twin),
   * tested the same way. The burn is CPU work; beside a noisy neighbour the req/s of two apps sharing the CPUs moved
   * far less than their CPU per request did (docs/runs/against.md).
   */
  cpu?: { ratio: number; lo: number; hi: number; p: number; seen: boolean };
}

export interface DesignRecord {
  /**
   * Variance of the paired difference ln A − ln B: between windows of one round (level 1) and between rounds
   * (level 2), pooled over the family's comparisons.
   */
  t2_window: number;
  t2_launch: number;
  warnings: string[];
  /** Seconds one window costs, and one launch without its windows (start, checks, warmup). */
  cost_window_s: number;
  cost_launch_s: number;
  /** Kalibera & Jones's optimal windows per launch for these components and costs, and what the run used. */
  optimal_windows: number;
  windows: number;
  comparisons: number;
  /** Mean ln(first window) − ln(the others') over launches: a warmup too short shows as a negative bias. */
  first_window_bias: number;
  /**
   * Variance of two launches' residual difference, launches of one round under near_s apart against further apart
   * (design.ts).
   */
  by_gap?: { near_s: number; near: number; far: number; pairs_near: number; pairs_far: number };
  /**
   * --layout walk: variance of a compared pair's window ln ratio (each window less its launch's
   * mean) by how many places apart in the round's order its two windows were: 1 (adjacent, what
   * the answers pair), 2–15, and 16 or more (design.ts).
   */
  by_distance?: { adjacent: number; near: number; far: number; pairs: [number, number, number] };
}
