// results.json's answer to one "what to pick" comparison. Part of the schema in results.ts.
import type { Comparison } from './questions';
import type { ProcedureName } from '../stats/procedures';
import type { RatioEstimate } from '../stats/stats';

export type { RatioEstimate };

export type Verdict = 'faster' | 'equal' | 'undecided';

/** a ÷ b req/s (RatioEstimate): exp of the mean per-round log ratio, and its t interval (at `level`). */
export interface Answer extends Comparison, RatioEstimate {
  verdict: Verdict;
  pairs: number;
  rounds: number;
  /** The look that decided it, or the last look for an open one. */
  look: number;
  /** The procedure that decided it (results before the moderated t: the paired t with a design effect). */
  procedure?: ProcedureName | 'pool';
  /**
   * Degrees of freedom of its t: its own (rounds − 1) plus what the family's prior lent (capped at the family's
   * total).
   */
  df?: number;
  /** The posterior sd of one round's ln ratio: how much a round of this comparison varies. */
  sd?: number;
  /** Older results: the design effect the paired t on windows allowed for. */
  design_effect?: number;
  /** Set when there were too few pairs for any interval at the asked level. */
  short?: string;
  /** Set when a contender of it failed or is invalid: it can never be answered. */
  out?: string;
}
