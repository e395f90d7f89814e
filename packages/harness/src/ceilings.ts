// Ceilings measured in the same invocation as the contenders. The Redis ceiling: redis-benchmark
// (it ships with redis-server) running the contenders' exact command at their connection count,
// with Redis's own usec_per_call over the same window.
import { spawnSync } from 'node:child_process';
import { STREAM_KEY, workloadCommand, type Workload } from '@bench/stream';
import { commandStats, RedisError, type RedisTarget } from './redis';

export interface RedisCeiling {
  command: string;
  connections: number;
  requests: number;
  rps: number;
  avg_latency_ms: number;
  p50_latency_ms: number;
  p99_latency_ms: number;
  /** Inside Redis, from INFO commandstats over the benchmark. */
  usec_per_call: number;
}

/** redis-benchmark --csv: a header line, then one quoted row per test. */
export function parseRedisBenchmarkCsv(csv: string): Omit<RedisCeiling, 'command' | 'connections' | 'requests' | 'usec_per_call'> {
  const rows = csv.trim().split('\n').map((line) => [...line.matchAll(/"([^"]*)"/g)].map((m) => m[1]!));
  const head = rows[0] ?? [];
  const row = rows.find((r, i) => i > 0 && r.length === head.length);
  if (!head.includes('rps') || !row) throw new RedisError(`redis-benchmark printed no result: ${csv.trim().split('\n')[0] ?? '(nothing)'}`);
  const field = (name: string) => Number(row[head.indexOf(name)]);
  return { rps: field('rps'), avg_latency_ms: field('avg_latency_ms'), p50_latency_ms: field('p50_latency_ms'), p99_latency_ms: field('p99_latency_ms') };
}

/** Runs redis-benchmark against the target for about `seconds`, sized from a short first pass. */
export function measureRedisCeiling(target: RedisTarget, workload: Workload, connections: number, seconds: number): RedisCeiling {
  const command = workloadCommand(workload, STREAM_KEY);
  const { hostname, port } = new URL(target.url);
  const bench = (requests: number) => {
    const r = spawnSync('redis-benchmark', ['-h', hostname, '-p', port || '6379', '-c', String(connections), '-n', String(requests), '--csv', ...command], {
      encoding: 'utf8',
      timeout: (seconds * 4 + 30) * 1000,
    });
    if (r.error || r.status !== 0) throw new RedisError(`redis-benchmark failed: ${r.error?.message ?? r.stderr.trim()} (it ships with redis-server)`);
    return parseRedisBenchmarkCsv(r.stdout);
  };
  const probe = bench(Math.max(connections * 4, 200));
  const requests = Math.max(connections * 4, Math.round(probe.rps * seconds));
  const name = command[0]!.toLowerCase();
  const before = commandStats(target)[name] ?? { calls: 0, usec: 0 };
  const result = bench(requests);
  const after = commandStats(target)[name] ?? { calls: 0, usec: 0 };
  const calls = after.calls - before.calls;
  return { command: command.join(' '), connections, requests, ...result, usec_per_call: calls ? (after.usec - before.usec) / calls : NaN };
}
