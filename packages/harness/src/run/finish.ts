// The run's last phase: the verdicts into results.json (answers/verdicts.ts), saved; a run that
// stopped early keeps what it measured and says why.
import { judgeRun } from '../answers/verdicts';
import { RedisError } from '../topology/redis';
import type { Suite } from './suite';

/** 0 when every contender is ok, 1 when one failed or is invalid; a stopped run throws its reason once saved. */
export function finish(suite: Suite, ok: boolean): number {
  const { results } = suite;
  judgeRun(results, ok);
  suite.save();
  if (!ok) throw new RedisError(results.exit_reason ?? 'measuring stopped');
  return results.contenders.every((r) => r.status === 'ok') ? 0 : 1;
}
