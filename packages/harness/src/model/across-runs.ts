// The published answers pooled over the kept runs (answers/across-runs.ts): what pool.json beside a published run
// holds, and what `npm run pool` writes.
import type { KeptAnswers } from './kept';
import type { Answer, RatioEstimate } from './answer';

/**
 * Today's inputs per contender, to pool runs of the same code: the package hash every kept run has, and (`used`) the
 * hash of what each contender runs, which newer records have too and which is compared where both have it.
 */
export interface Today {
  inputs: Record<string, string>;
  used?: Record<string, string>;
  /** How `used` was hashed (run/inputs.ts USED_SCHEME): a record's inputs_used counts only when hashed the same way. */
  used_scheme?: number;
}

/** One kept run as the pool read it. */
export interface PoolRun {
  started_at: string;
  commit: string;
  /** The machine: its hardware (model/kept.ts machineKey), whatever its kernel build or boot. */
  machine: string;
  /** What its CPU's model name can hide (model/kept.ts KeptHost.cpu_id), where recorded. */
  cpu_id?: string;
  /** Its CPU placement (--placement): a configuration of the machine, answered apart unless its default. */
  placement: string;
  /** The placement a default run takes on its machine (answers/across-runs.ts defaultPlacementOf); absent: "none". */
  default_placement?: string;
  sd_windows: number | null;
  /** Quiet or contended, from its sd between windows (model/kept.ts conditionOf); null: not recorded. */
  condition: 'quiet' | 'contended' | null;
  /** Where its inputs were read: at the run, or recovered from its commit; null: not recorded. */
  inputs_from: 'run' | 'git' | null;
  /** Comparisons it counted in. */
  pooled: number;
  /** Contenders whose inputs differ from today's: the comparisons they are in do not count this run. */
  changed: string[];
  /** Why it counts in no comparison at all. */
  left_out?: string;
  /** Its handicap check, judged as its answers are (kept records of schema 2). */
  check?: KeptAnswers['check'];
}

/**
 * Where a pooled answer holds (answers/where.ts): decided the same way on every machine measured, decided on some and
 * open on others, decided one way on one machine and the other way on another, or open on every one.
 */
export type Holds = 'holds on every machine measured' | 'depends on the machine' | 'reverses' | 'open';

/**
 * One comparison's answer on one machine (one configuration: a machine and a placement), from its runs alone. Its
 * `level`: α/m at the machine's share of α for "faster", else the "equal" test's.
 */
export interface OnMachine extends RatioEstimate {
  /** The machine's hardware (model/kept.ts machineKey), its placement, and its machine's default (absent: "none"). */
  machine: string;
  placement: string;
  default_placement?: string;
  /** "AMD EPYC" or "AMD EPYC (split)": how the words name it. */
  name: string;
  runs: number;
  /** The boots those runs came from: on one, the comparison is not decided there (answers/across-runs.ts MIN_BOOTS). */
  boots?: number;
  verdict: 'faster' | 'equal' | 'undecided';
  /** This comparison's posterior mean sd between boots on this machine (ln). */
  tau: number;
}

/**
 * Whether a configuration is its machine's own: at the placement a default run takes there (`--placement auto`: none
 * under 4 logical CPUs, disjoint from 4), not one answered apart. Pool files written before it was recorded: "none".
 */
export const atDefault = (o: { placement: string; default_placement?: string }) =>
  o.placement === (o.default_placement ?? 'none');

/**
 * What one machine (or configuration) said of a ÷ b, in the answer's own order: decided above 1 is "faster", below it
 * "slower" (its verdict "faster" means decided, on either side), else "equal" or "open".
 */
export type Said = 'faster' | 'slower' | 'equal' | 'open';
export const saidOn = (m: Pick<OnMachine, 'verdict' | 'ratio'>): Said =>
  m.verdict === 'undecided' ? 'open' : m.verdict === 'equal' ? 'equal' : m.ratio >= 1 ? 'faster' : 'slower';

export interface PoolAnswer extends Answer {
  pool: {
    runs: number;
    machines: number;
    /** Between-run sd of ln A − ln B (the mean over its machines), and between machines (0 under five machines). */
    tau: number;
    tau_machine: number;
    /** Where a run on an unmeasured machine is expected: only from five machines measured (null below). */
    prediction: { lo: number; hi: number; level: number } | null;
    holds: Holds;
    /** "holds on every machine measured (…)", "faster on Intel Xeon, open on AMD EPYC", "reverses: …". */
    where: string;
    /** Its verdict on each machine (each configuration), from that machine's runs alone. */
    on_machines: OnMachine[];
    /** Each pooled run's own estimate (a ÷ b) and its standard error (ln). */
    estimates: { run: string; ratio: number; se: number }[];
  };
}

/** One line of the first screen (answers/picks.ts): what a reader wants, its pick against the usual choice. */
export interface PickLine {
  id: string;
  want: string;
  /** The stacks at their libraries' defaults this line takes, each compared with the usual choice. */
  candidates: number;
  /**
   * Decided faster than the usual choice on some machine and slower on none (on every machine first), with the
   * largest smallest ratio over the machines; where none is (`decided` false), the one decided slower on no machine
   * with the highest estimate; null: none measured.
   */
  pick: string | null;
  decided: boolean;
  /** None shown faster and the usual choice fits the line: keep it (`pick` is then the closest, not shown faster). */
  keep: boolean;
  /**
   * Every candidate of the line measured, and on every machine equal to the usual choice or decided slower: keeping it
   * gives up nothing beyond the margin. Absent in a pool.json written before it.
   */
  none_faster?: boolean;
  /**
   * Stacks of the line decided faster on some machine and slower on another (no pick, and not "none shown faster" on
   * the machines where they are faster). Absent in a pool.json written before it.
   */
  reverses?: string[];
  answer: PoolAnswer | null;
  /** Others decided faster on every machine measured (never tested against the pick). */
  also: string[];
}

/** The first screen's family: each stack one could ship against the usual choice, pooled. */
export interface PicksResult {
  usual: string;
  alpha: number;
  spent: number;
  per_machine: number;
  machines: number;
  configurations: number;
  lines: PickLine[];
  /** Picks said below the table by the same rule (on Bun); absent in a pool.json written before them. */
  notes?: PickLine[];
  answers: PoolAnswer[];
}

export interface PoolResult {
  workload: string;
  /** The family's α: split over the keeps (`spent`) and, within a keep, over the machines (`per_machine`). */
  alpha: number;
  /**
   * The keeps so far of these inputs (k: the runs pooled) and the α this keep spends, α / (k (k + 1)): summed over
   * every keep it is at most α, so re-testing as runs are added keeps the family's error rate.
   */
  keeps: number;
  spent: number;
  /**
   * The α each machine (each configuration) decides at, α/m for each comparison inside it: `spent` / `deciding`, the
   * configurations measured on enough boots to decide (answers/across-runs.ts MIN_BOOTS); one of a single boot takes no
   * share.
   */
  per_machine: number;
  deciding?: number;
  /** `--any-inputs`: every kept run taken as today's code, whatever its inputs. */
  any_inputs: boolean;
  /**
   * Whose inputs a run's must equal to count: the published run's (publish/) or the checkout's (`npm run pool`), at
   * that commit (dirty: the checkout had changes). Absent in pools written before it was recorded.
   */
  inputs_of?: { source: 'run' | 'checkout'; commit: string; dirty: boolean };
  margin_pct: number;
  /**
   * Per machine (configuration), the sd between its boots (τr): the median of its comparisons' own posterior means
   * (stats/meta-analysis.ts statedPrior), its runs, the boots they came from (under 2: not decided on), and
   * how many of those boots had a contended run (model/kept.ts conditionOf); and the comparisons it answered (decided
   * or equal) of those it measured.
   */
  priors: {
    machine: string;
    placement: string;
    default_placement?: string;
    tau: number;
    runs: number;
    boots: number;
    contended_boots: number;
    answered: number;
    asked: number;
  }[];
  /** The stated prior's half-normal scale on τr between boots, and the boots a machine is decided on from. */
  run_prior: { scale: number; min_boots: number };
  runs: PoolRun[];
  /**
   * The runs' handicap checks judged as the answers are, per machine and across them (answers/across-runs.ts
   * pooledCheck): whether the pooled answers see the known 10% (absent where no kept run recorded its check's standard
   * error).
   */
  check?: Omit<NonNullable<KeptAnswers['check']>, 'se' | 'df'> & {
    runs: number;
    machines: number;
    where: string;
    on_machines: OnMachine[];
  };
  /**
   * Each machine left out in turn (answers/across-runs.ts leaveOneOut): the "holds on every machine measured" claims
   * the other machines make, and how the machine left out decides them alone (expected: none the other way).
   */
  leave_one_out?: { machine: string; claims: number; same: number; open: number; other_way: number }[];
  /** Machines (hardware) with a pooled run, and configurations (a machine and a placement). */
  machines: number;
  configurations: number;
  /** The first screen's answers (answers/picks.ts): absent where the usual choice was not measured. */
  picks?: PicksResult;
  answers: PoolAnswer[];
}
