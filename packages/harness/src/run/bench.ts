// The benchmark, top to bottom: prepare (Redis, data, builds) → schedule (randomized rounds of
// fresh, verified, warmed-up trials) → finish (the verdicts: statistics, gates, relative index).
// results.json is flushed after every run, so any exit keeps what was measured.
import type { CliOptions } from './options';
import type { Contender, Unsupported } from '../model/contenders';
import { prepare } from './prepare';
import { schedule } from './schedule';
import type { Session } from './suite';
import { finish } from './finish';

export async function runBench(
  opts: CliOptions,
  all: Contender[],
  unsupported: Unsupported[],
  session: Session,
): Promise<number> {
  const suite = await prepare(opts, all, unsupported, session);
  const ok = await schedule(suite);
  return finish(suite, ok);
}
