// oha runner and the reading of its JSON output (--output-format json; times in seconds).
import { mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { killTree, selfCpuSeconds, spawnTracked } from '../system/proc';
import { pinned } from '../system/placement';
import { type Latency, type OhaRun, PERCENTILES } from '../model/results';

export interface OhaJson {
  summary: {
    total: number;
    requestsPerSec: number;
    successRate: number;
    totalData: number;
    sizePerRequest: number | null;
  };
  latencyPercentiles: Record<string, number | null>;
  statusCodeDistribution: Record<string, number>;
  errorDistribution: Record<string, number>;
}

const ABORTED = 'aborted due to deadline';

export function summarizeOha(json: OhaJson): OhaRun {
  let ok = 0;
  let non2xx = 0;
  for (const [code, n] of Object.entries(json.statusCodeDistribution ?? {})) {
    if (code.startsWith('2')) ok += n;
    else non2xx += n;
  }
  let aborted = 0;
  let other = 0;
  for (const [msg, n] of Object.entries(json.errorDistribution ?? {})) {
    if (msg === ABORTED) aborted += n;
    else other += n;
  }
  const seconds = json.summary.total;
  const latency = {} as Latency;
  for (const p of PERCENTILES) latency[p] = (json.latencyPercentiles?.[p.replace('_', '.')] ?? NaN) * 1000;
  return {
    rps: seconds > 0 ? ok / seconds : 0,
    ok,
    seconds,
    errors: { non_2xx: non2xx, aborted, other },
    errorMessages: json.errorDistribution ?? {},
    latency_ms: latency,
    total_bytes: json.summary.totalData ?? NaN,
    responses: ok + non2xx,
  };
}

export { ohaArgs, type OhaOptions } from '../model/load-command';
import { ohaArgs, type OhaOptions } from '../model/load-command';

/** How often a window looks for the servers' processes (`alive`): a read of each one's /proc stat, nothing more. */
const ALIVE_EVERY_MS = 250;

/**
 * Runs one oha process; returns its raw JSON, the summary and the CPU oha itself used. `alive`: whether the servers'
 * processes still run; once one has gone, oha is stopped and this throws, rather than waiting for each request
 * in flight to time out (oha's -t, 20 s).
 */
export async function runOha(
  o: OhaOptions,
  alive?: () => boolean,
): Promise<{ raw: OhaJson; run: OhaRun; cpuSeconds: number }> {
  // oha's CPU is read from this process's reaped-children time: exact, and no polling.
  mkdirSync(dirname(o.outFile), { recursive: true });
  const before = selfCpuSeconds().reapedChildren;
  const [cmd, ...args] = pinned(o.cpuList ?? null, ['oha', ...ohaArgs(o)]);
  const proc = spawnTracked(cmd!, args);
  // Backstop for a load generator that never finishes (e.g. the seed profile against a hung app).
  const limitMs = ((o.duration_s ?? 0) + 60) * 1000;
  const watchdog = setTimeout(() => killTree(proc.pid, 500), limitMs);
  let gone = false;
  const watch = alive
    ? setInterval(() => {
        if (gone || alive()) return;
        gone = true;
        killTree(proc.pid, 500);
      }, ALIVE_EVERY_MS)
    : null;
  const { code, signal } = await proc.exited;
  clearTimeout(watchdog);
  if (watch) clearInterval(watch);
  const cpu = selfCpuSeconds().reapedChildren - before;
  if (gone) throw new Error('a server stopped during the window; oha was stopped');
  if (code !== 0) throw new Error(`oha failed (${signal ?? `exit ${code}`}): ${proc.tail().slice(-3).join(' ')}`);
  const raw = JSON.parse(readFileSync(o.outFile, 'utf8')) as OhaJson;
  return { raw, run: summarizeOha(raw), cpuSeconds: cpu };
}
