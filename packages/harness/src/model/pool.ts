// The published answers pooled over the kept runs (answers/pool.ts): what pool.json beside a published run holds,
// and what `npm run pool` writes.
import type { KeptAnswers } from './kept';
import type { Answer } from './results';

/** One kept run as the pool read it. */
export interface PoolRun {
  started_at: string;
  commit: string;
  /** The machine as pooling tells machines apart (model/kept.ts machineKey). */
  machine: string;
  sd_windows: number | null;
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
 * Where a pooled answer holds: its 95% prediction interval for a new run (on a new machine, where the family was
 * measured on two or more) on the decided side of 1, or within ±margin for "equal"; else it depends on the machine
 * (or, with one machine measured, on the run).
 */
export type Holds = 'holds' | 'depends on the machine' | 'depends on the run' | 'open';

export interface PoolAnswer extends Answer {
  pool: {
    runs: number;
    machines: number;
    /** Between-run and between-machine sd of ln A − ln B (posterior means; τm 0 with one machine measured). */
    tau: number;
    tau_machine: number;
    prediction: { lo: number; hi: number; level: number } | null;
    holds: Holds;
    /** Each pooled run's own estimate (a ÷ b) and its standard error (ln). */
    estimates: { run: string; ratio: number; se: number }[];
  };
}

export interface PoolResult {
  workload: string;
  alpha: number;
  margin_pct: number;
  /**
   * The family's prior on the between-run and between-machine sd (stats/pool.ts), as its means, the comparisons it
   * was learnt from, and the machines in the family (1: the answers are of that machine).
   */
  prior: { tau: number; tau_machine: number; comparisons: number; machines: number };
  runs: PoolRun[];
  /**
   * The runs' handicap checks pooled as the answers are (answers/pool.ts pooledCheck): whether the pooled answers see
   * the known 10% (absent where no kept run recorded its check's standard error).
   */
  check?: Omit<NonNullable<KeptAnswers['check']>, 'se' | 'df'> & { runs: number; machines: number };
  /** Machines with a pooled run. */
  machines: number;
  answers: PoolAnswer[];
}
