// The procedures a comparison's per-round log ratios are tested with, by name: what a decision
// calls, so that one more (a permutation test, a bootstrap) is one entry here. Each entry describes
// itself (its name, which results.json records, its assumptions, and the sentence a report prints)
// and says, at a level, the ratio, its interval and a two-sided p-value of "no difference".
//   moderated-t  the family's comparisons lend each other a variance (moderated.ts): the answers, and the default
//                run's handicap check, which vouches for them only when judged as they are.
//   signed-rank  one pair's own rounds, robust to a launch that runs far off (signed-rank.ts): the changes; and
//                beside the check, a diagnostic.
//   covariate-t  one pair's own units with a covariate (covariate.ts): beside the check, a diagnostic (the burn moves
//                its covariate, the event loop's wait for a CPU, so the adjusted figure leans toward the injected one).
// Pooling a comparison over runs and machines is a family's step of its own (pool.ts): it takes each run's estimate
// and standard error, not rounds.
// "faster" at α/m over a family and the two one-sided tests of "equal" are applied to what these
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

/** A procedure said by itself: the name results.json records, what it assumes, and the sentence a report prints. */
export interface ProcedureAbout {
  name: string;
  /** What must hold of the data for its error rate to hold. */
  assumptions: string[];
  /** How it tests one comparison, as a report says it after "Each … is tested on its per-round ratios with". */
  sentence: string;
}

interface Procedure extends ProcedureAbout {
  test(d: RatioData, level: number): RatioTest;
}

export const PROCEDURES = {
  'moderated-t': {
    name: 'moderated-t',
    assumptions: [
      "a round's mean ln ratio is normal around the comparison's own",
      'the comparisons of a family have variances drawn from one scaled inverse χ² (the prior)',
      'rounds are independent',
    ],
    sentence: "the moderated t (empirical Bayes, after limma), each comparison's variance shrunk toward the family's",
    test: (d, level) => {
      if (!d.prior) throw new Error('the moderated t needs the family prior');
      return moderatedT(d.reps, d.prior, level, d.s02 ?? d.prior.s02);
    },
  },
  'signed-rank': {
    name: 'signed-rank',
    assumptions: ["a round's ln ratio is symmetric around the pair's own", 'rounds are independent'],
    sentence: "Wilcoxon's signed-rank test (the ratio: Hodges–Lehmann's estimate)",
    test: (d, level) => signedRank(d.rounds, level),
  },
  'covariate-t': {
    name: 'covariate-t',
    assumptions: [
      "a unit's ln ratio is linear in its covariate, with normal errors",
      'the covariate is not moved by the treatment',
      'units are independent',
    ],
    sentence: 'least squares on a covariate (each launch a unit), the ratio read at an equal covariate',
    test: (d, level) => {
      if (!d.covariate) throw new Error('the covariate t needs a covariate per unit');
      return covariateT(d.rounds, d.covariate, level);
    },
  },
} as const satisfies Record<string, Procedure>;

export type ProcedureName = keyof typeof PROCEDURES;

/** The ratio, interval and p of one comparison by the named procedure. */
export const testRatio = (name: ProcedureName, d: RatioData, level = 0.95): RatioTest =>
  PROCEDURES[name].test(d, level);

/** Each procedure's own description, without its test: what an analysis hands the report. */
export const aboutProcedure = (name: ProcedureName): ProcedureAbout => {
  const { test: _, ...about } = PROCEDURES[name];
  return about;
};
