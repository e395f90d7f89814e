// The benchmark, top to bottom: prepare (Redis, data, builds) → schedule (randomized rounds of
// fresh, verified, warmed-up trials) → finish (the verdicts: statistics, gates, relative index).
// results.json is flushed after every run, so any exit keeps what was measured. A --target run prepares its own
// state (target.ts) and goes through the same schedule and finish.
import type { CliOptions } from './options';
import type { Contender, Unsupported } from '../model/contenders';
import type { Results } from '../model/results';
import { prepare } from './prepare';
import { schedule } from './schedule';
import type { RunState, Session } from './state';
import { finish } from './finish';

/** One run, start to end: its exit code (0 when every contender is ok), its results and the folder they are in. */
export async function runBench(
  opts: CliOptions,
  all: Contender[],
  unsupported: Unsupported[],
  session: Session,
): Promise<{ code: number; results: Results; runDir: string }> {
  return measureToEnd(await prepare(opts, all, unsupported, session), session);
}

/** A prepared run, scheduled and finished: the one pipeline of a manifest's run and of --target. */
export async function measureToEnd(
  state: RunState,
  session: Session,
): Promise<{ code: number; results: Results; runDir: string }> {
  const ok = await schedule(state);
  return { code: finish(state.results, state.save, ok), results: state.results, runDir: session.runDir! };
}
