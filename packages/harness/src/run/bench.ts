// The benchmark, top to bottom: prepare (Redis, data, builds) → schedule (randomized rounds of
// fresh, verified, warmed-up trials) → finish (the verdicts: statistics, gates, relative index).
// results.json is flushed after every run, so any exit keeps what was measured.
import type { CliOptions } from './options';
import type { Contender, Unsupported } from '../model/contenders';
import { prepare } from './prepare';
import { schedule } from './schedule';
import type { Session } from './state';
import { finish } from './finish';

export async function runBench(
  opts: CliOptions,
  all: Contender[],
  unsupported: Unsupported[],
  session: Session,
): Promise<number> {
  const state = await prepare(opts, all, unsupported, session);
  const ok = await schedule(state);
  return finish(state.results, state.save, ok);
}
