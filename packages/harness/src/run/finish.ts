// The run's last phase: the verdicts into results.json (answers/verdicts.ts), saved; a run that
// stopped early keeps what it measured and says why.
import { workloadOfRun } from '../workloads';
import { runVerdicts } from '../answers/verdicts';
import { RedisError } from '../topology/redis';
import type { Results } from '../model/results';
import { info } from '../system/progress';

/** 0 when every contender is ok, 1 when one failed or is invalid; a stopped run throws its reason once saved. */
export function finish(results: Results, save: () => void, ok: boolean): number {
  // The verdicts are computed by answers/ from the record as measured, and stored into it here.
  Object.assign(results, runVerdicts(results, ok, workloadOfRun(results.settings).rules));
  save();
  if (!ok) throw new RedisError(results.exit_reason ?? 'measuring stopped');
  // The contract on any stream: a body that differs by named causes only is a finding, said here, not a failure.
  const differ = results.contenders.filter((c) => c.contract);
  if (differ.length)
    info(
      `the contract: ${differ.length} contender(s) differ from the golden body by named causes only ` +
        `(measured on their own body; results.md names them): ${differ.map((c) => c.name).join(', ')}`,
    );
  return results.contenders.every((r) => r.status === 'ok') ? 0 : 1;
}
