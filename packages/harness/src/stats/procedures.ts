// The procedures a comparison's per-round log ratios are tested with, by name: what a decision
// calls, so that one more (a permutation test, a bootstrap) is one entry here. Each says, at a
// level, the ratio, its interval and a two-sided p-value of "no difference".
//   moderated-t  the family's comparisons lend each other a variance (moderated.ts): the answers, and the default
//                run's handicap check, which vouches for them only when judged as they are.
//   signed-rank  one pair's own rounds, robust to a launch that runs far off (signed-rank.ts): the changes; and
//                beside the check, a diagnostic.
//   covariate-t  one pair's own units with a covariate (covariate.ts): beside the check, a diagnostic (the burn moves
//                its covariate, the event loop's wait for a CPU, so the adjusted figure leans toward the injected one).
// Pooling a comparison over runs and machines is a family's step of its own (pool.ts): it takes each run's estimate
// and standard error, not rounds.
// Holm's step-down over a family and the two one-sided tests of "equal" are applied to what these
// return (answers/decide.ts look).
import { moderatedT, type ModeratedRatio, type Prior, type Replicates } from './moderated';
import { type RankRatio, signedRank } from './signed-rank';
import { type CovariateRatio, covariateT } from './covariate';

export type RatioTest = ModeratedRatio | RankRatio | CovariateRatio;

/**
 * One comparison as a procedure sees it: its rounds' mean ln ratios, and for the moderated t its prior at its
 * noise.
 */
export interface RatioData {
  rounds: number[];
  reps: Replicates;
  prior?: Prior;
  s02?: number;
  /** covariate-t: each unit's covariate, in the order of `rounds`. */
  covariate?: number[];
}

export const PROCEDURES = {
  'moderated-t': (d: RatioData, level: number): RatioTest => {
    if (!d.prior) throw new Error('the moderated t needs the family prior');
    return moderatedT(d.reps, d.prior, level, d.s02 ?? d.prior.s02);
  },
  'signed-rank': (d: RatioData, level: number): RatioTest => signedRank(d.rounds, level),
  'covariate-t': (d: RatioData, level: number): RatioTest => {
    if (!d.covariate) throw new Error('the covariate t needs a covariate per unit');
    return covariateT(d.rounds, d.covariate, level);
  },
} as const;

export type ProcedureName = keyof typeof PROCEDURES;

/** The ratio, interval and p of one comparison by the named procedure. */
export const testRatio = (name: ProcedureName, d: RatioData, level = 0.95): RatioTest => PROCEDURES[name](d, level);
