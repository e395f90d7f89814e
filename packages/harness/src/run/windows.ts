// The windows of one launch pooled into the one run the statistics see: counts summed, rates over
// the summed time, and each window kept beside them.
import { median } from 'simple-statistics';
import { type Latency, PERCENTILES, type RunRecord } from '../model/results';
import { sumCounts, type Workload } from '../workloads';

/** Each window's own figures, kept beside the pooled ones, with its workload's record. */
export const windowsOf = (runs: RunRecord[]) =>
  runs.map((r, index) => ({
    index,
    ...(r.seq !== undefined ? { seq: r.seq } : {}),
    ...(r.launch !== undefined ? { launch: r.launch } : {}),
    started_at: r.started_at,
    ended_at: r.ended_at,
    rps: r.rps,
    ok: r.ok,
    redis_calls: r.redis_calls,
    cpu_us_per_req: r.cpu_us_per_req,
    cpu_steal_pct: r.cpu_steal_pct,
    ...(r.main_thread_cpu_s !== undefined ? { main_thread_cpu_s: r.main_thread_cpu_s } : {}),
    ...(r.main_thread_wait_s !== undefined ? { main_thread_wait_s: r.main_thread_wait_s } : {}),
    raw: r.raw,
    ...(r.idle_cpu_s !== undefined ? { idle_cpu_s: r.idle_cpu_s } : {}),
    ...(r.workload ? { workload: r.workload } : {}),
  }));

const sum = (runs: RunRecord[], f: (r: RunRecord) => number) => runs.reduce((n, r) => n + f(r), 0);

/**
 * The windows of one launch as one run: counts summed, rates over the summed time, each window kept; the workload's
 * own fields pooled by its module, and its responses that reached Redis (the live prober's reads too) as it counts
 * them.
 */
export function pooled(runs: RunRecord[], workload: Workload): RunRecord {
  // A window's launch is its own (windowsOf keeps it), not the pooled run's.
  const { launch: _, workload: __, ...first } = runs[0]!;
  const record = workload.pool(runs);
  const ok = sum(runs, (r) => r.ok);
  const served = sum(runs, workload.rules.served);
  const seconds = sum(runs, (r) => r.seconds);
  const appCpu = sum(runs, (r) => r.app_cpu_s);
  const calls = sum(runs, (r) => r.redis_calls);
  const redisCpu = runs.every((r) => r.redis_cpu_s !== null) ? sum(runs, (r) => r.redis_cpu_s!) : null;
  const middle = (f: (r: RunRecord) => number) => {
    const xs = runs.map(f).filter(Number.isFinite);
    return xs.length ? median(xs) : NaN;
  };
  return {
    ...first,
    rps: seconds > 0 ? ok / seconds : 0,
    ok,
    seconds,
    errors: {
      non_2xx: sum(runs, (r) => r.errors.non_2xx),
      aborted: sum(runs, (r) => r.errors.aborted),
      other: sum(runs, (r) => r.errors.other),
    },
    error_messages: sumCounts(runs.map((r) => r.error_messages)),
    latency_ms: Object.fromEntries(PERCENTILES.map((p) => [p, middle((r) => r.latency_ms[p])])) as Latency,
    total_bytes: sum(runs, (r) => r.total_bytes),
    responses: sum(runs, (r) => r.responses),
    app_cpu_s: appCpu,
    cpu_us_per_req: ok ? (appCpu * 1e6) / served : NaN,
    ...(runs.every((r) => r.main_thread_cpu_s !== undefined)
      ? { main_thread_cpu_s: sum(runs, (r) => r.main_thread_cpu_s!) }
      : {}),
    ...(runs.every((r) => r.main_thread_wait_s !== undefined)
      ? { main_thread_wait_s: sum(runs, (r) => r.main_thread_wait_s!) }
      : {}),
    rss_mb: Math.max(...runs.map((r) => r.rss_mb)),
    redis_calls: calls,
    redis_calls_per_req: ok ? calls / served : NaN,
    redis_us_per_call: calls ? sum(runs, (r) => r.redis_us_per_call * r.redis_calls) / calls : NaN,
    ...(runs.some((r) => r.commands_by_name)
      ? { commands_by_name: sumCounts(runs.map((r) => r.commands_by_name ?? {})) }
      : {}),
    redis_cpu_s: redisCpu,
    loadgen_cpu_s: sum(runs, (r) => r.loadgen_cpu_s),
    ...(runs.some((r) => r.idle_cpu_s !== undefined) ? { idle_cpu_s: sum(runs, (r) => r.idle_cpu_s ?? 0) } : {}),
    ...(runs.every((r) => r.proxy_cpu_s !== undefined) ? { proxy_cpu_s: sum(runs, (r) => r.proxy_cpu_s!) } : {}),
    ...(record ? { workload: record } : {}),
    loadgen_saturated: runs.some((r) => r.loadgen_saturated),
    harness_cpu_pct: Math.max(...runs.map((r) => r.harness_cpu_pct)),
    cpu_steal_pct: seconds > 0 ? sum(runs, (r) => r.cpu_steal_pct * r.seconds) / seconds : first.cpu_steal_pct,
    ended_at: runs.at(-1)!.ended_at,
    after_check: runs.at(-1)!.after_check,
    fault: runs.find((r) => r.fault)?.fault,
    windows: windowsOf(runs),
  };
}
