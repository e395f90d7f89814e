// A trial's outcome written into its contender's results: a run kept, a run set aside (CPU steal,
// Redis died), or the contender out (failed, invalid).
import { OWN_APP } from '../model/contenders';
import type { ContenderResult, PointResult, Results, RunRecord } from '../model/results';
import { info, log } from '../system/progress';
import type { TrialOutcome } from './launch';
import { STEAL_FAULT, STEAL_RETRIES } from './plan';
import { discard, fail } from './state';

/**
 * Record one outcome of `r` at `point` (`attempt`: how many runs of this round CPU steal spoilt
 * before). False: stop measuring (Redis died; `results.exit_reason` says so).
 */
export function record(
  results: Pick<Results, 'settings' | 'exit_reason'>,
  r: ContenderResult,
  point: PointResult,
  outcome: TrialOutcome,
  label: string,
  attempt: number,
): boolean {
  const maxSteal = results.settings.max_steal_pct;
  if (outcome.kind === 'redis-died') {
    // Not the contender's fault: discard the run and leave it incomplete, so --resume measures it again.
    for (const run of outcome.runs) discard(point, run, 'Redis died during this run');
    r.reason = `Redis died during ${label}; that run is discarded`;
    results.exit_reason = `Redis stopped answering during ${r.name}; measuring stopped`;
    log(`${r.name}: Redis stopped answering; measuring stops here`);
    return false;
  }
  if (outcome.kind === 'out') {
    point.runs.push(...outcome.runs);
    fail(r, outcome.status, outcome.reason, outcome.output);
    log(`${r.name}: ${outcome.status.toUpperCase()}: ${outcome.reason}`);
    return true;
  }
  const run = outcome.runs[0]!;
  if (run.cpu_steal_pct > maxSteal) {
    discard(point, run, `${STEAL_FAULT} ${run.cpu_steal_pct.toFixed(1)}% > ${maxSteal}%`);
    if (attempt < STEAL_RETRIES) {
      info(`${label}: CPU steal ${run.cpu_steal_pct.toFixed(1)}%, measured again later in this round`);
    } else {
      point.left_out = (point.left_out ?? 0) + 1;
      log(`${label}: CPU steal above ${maxSteal}% on all ${STEAL_RETRIES + 1} attempts; this round is left out`);
    }
    return true;
  }
  point.runs.push(run);
  info(`${label}: ${runLine(run, r.app === OWN_APP)}`);
  return true;
}

/** One run in the log: its rate, median latency and costs (`byName`: each Redis command per request, an --app's). */
export const runLine = (run: RunRecord, byName = false) =>
  run.duet_only
    ? `duet windows only: ${run.rps.toFixed(0)} req/s beside its twin, p50 ${run.latency_ms.p50.toFixed(1)} ms`
    : `${run.rps.toFixed(0)} req/s, p50 ${run.latency_ms.p50.toFixed(1)} ms, ` +
      `${Number.isFinite(run.cpu_us_per_req) ? `${run.cpu_us_per_req.toFixed(0)} µs CPU/req` : 'CPU not measured'}, ` +
      callsText(run, byName);

/** "1.00 calls/req" (the workload's command), or by name: "GET 1.00, XRANGE 1.00 per req" (none: "no Redis call"). */
function callsText(run: RunRecord, byName: boolean): string {
  if (!byName) return `${run.redis_calls_per_req.toFixed(2)} calls/req`;
  const each = Object.entries(run.commands_by_name ?? {})
    .map(([name, n]): [string, number] => [name, run.ok ? n / run.ok : 0])
    .filter(([, n]) => n >= 0.005);
  return each.length
    ? `${each.map(([name, n]) => `${name.toUpperCase()} ${n.toFixed(2)}`).join(', ')} per req`
    : 'no Redis call';
}

/** Redis stopped answering around a block (named by `what`): measuring stops, and the results say why. */
export function redisStopped(results: Pick<Results, 'exit_reason'>, what: string): false {
  results.exit_reason = `Redis stopped answering during ${what}; measuring stopped`;
  log(results.exit_reason);
  return false;
}
