// How long the rest of a run takes, learned from the trials so far: each contender's own mean
// trial time once it has one, the mean of every trial before that, a guess before any.
import { mean } from '../stats/stats';

export class TrialClock {
  private readonly seconds = new Map<string, number[]>();
  constructor(private readonly guessS: number) {}

  add(name: string, s: number): void {
    (this.seconds.get(name) ?? this.seconds.set(name, []).get(name)!).push(s);
  }

  of(name: string): number {
    const own = this.seconds.get(name);
    if (own?.length) return mean(own);
    const all = [...this.seconds.values()].flat();
    return all.length ? mean(all) : this.guessS;
  }

  sum(names: string[]): number {
    return names.reduce((s, n) => s + this.of(n), 0);
  }
}

export interface ForecastInput {
  elapsedS: number;
  /** --runs auto: no round starts that would end after this; null for a fixed run count. */
  budgetS: number | null;
  /** What follows the rounds (the ceilings), kept out of the budget as the schedule does. */
  reserveS: number;
  /** Contenders still to run in this round. */
  leftInRound: string[];
  /** The contenders due in each later round, as far as the run count allows. */
  laterRounds: string[][];
}

/** Seconds and runs left: the rest of this round, each later round the budget still allows, then the reserve. */
export function forecast(clock: TrialClock, o: ForecastInput): { etaS: number; runsLeft: number } {
  let t = o.elapsedS + clock.sum(o.leftInRound);
  let runsLeft = o.leftInRound.length;
  for (const due of o.laterRounds) {
    const est = clock.sum(due);
    if (!due.length || (o.budgetS !== null && t + est + o.reserveS > o.budgetS)) break;
    t += est;
    runsLeft += due.length;
  }
  return { etaS: t + o.reserveS - o.elapsedS, runsLeft };
}
