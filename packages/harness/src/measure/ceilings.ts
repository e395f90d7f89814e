// Ceilings measured in the same invocation as the contenders. The Redis ceiling: redis-benchmark
// (it ships with redis-server) running the contenders' exact command at their connection count,
// with Redis's own usec_per_call over the same window. The client ceiling: each runtime × client
// reading and building the body in a loop, with no HTTP. (The HTTP ceilings are contenders.)
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { STREAM_KEY, workloadCommand, type ReadWorkload } from '@bench/stream';
import { removeClientLeftovers } from './apps';
import { ROOT } from '../system/paths';
import { killTree, spawnTracked } from '../system/proc';
import { commandStats, RedisError, type RedisTarget } from '../topology/redis';
import { scriptCommand, type RuntimeName } from '../model/runtimes';
import type { ClientCeiling, RedisCeiling } from '../model/results';

/** redis-benchmark --csv: a header line, then one quoted row per test. */
export function parseRedisBenchmarkCsv(
  csv: string,
): Omit<RedisCeiling, 'command' | 'connections' | 'requests' | 'usec_per_call'> {
  const rows = csv
    .trim()
    .split('\n')
    .map((line) => [...line.matchAll(/"([^"]*)"/g)].map((m) => m[1]!));
  const head = rows[0] ?? [];
  const row = rows.find((r, i) => i > 0 && r.length === head.length);
  if (!head.includes('rps') || !row)
    throw new RedisError(`redis-benchmark printed no result: ${csv.trim().split('\n')[0] ?? '(nothing)'}`);
  const field = (name: string) => Number(row[head.indexOf(name)]);
  return {
    rps: field('rps'),
    avg_latency_ms: field('avg_latency_ms'),
    p50_latency_ms: field('p50_latency_ms'),
    p99_latency_ms: field('p99_latency_ms'),
  };
}

/** Runs redis-benchmark against the target for about `seconds`, sized from a short first pass. */
export function measureRedisCeiling(
  target: RedisTarget,
  workload: ReadWorkload,
  connections: number,
  seconds: number,
): RedisCeiling {
  const command = workloadCommand(workload, STREAM_KEY);
  // Under --redis-tls, over TLS as the apps read it.
  const { hostname, port, username, password } = new URL(target.tls?.url ?? target.url);
  if (username || password)
    throw new RedisError(
      'REDIS_URL has a user or password, which redis-benchmark takes only on its command line (where ps shows it): ' +
        'unset REDIS_URL for a private Redis to measure it',
    );
  const tls = target.tls ? ['--tls', '--cacert', target.tls.ca] : [];
  const bench = (requests: number) => {
    const r = spawnSync(
      'redis-benchmark',
      ['-h', hostname, '-p', port || '6379', ...tls, '-c', String(connections), '-n', String(requests), '--csv'].concat(
        command,
      ),
      {
        encoding: 'utf8',
        timeout: (seconds * 4 + 30) * 1000,
      },
    );
    if (r.error || r.status !== 0)
      throw new RedisError(
        `redis-benchmark failed: ${r.error?.message ?? r.stderr.trim()} (it ships with redis-server)`,
      );
    return parseRedisBenchmarkCsv(r.stdout);
  };
  const probe = bench(Math.max(connections * 4, 200));
  const requests = Math.max(connections * 4, Math.round(probe.rps * seconds));
  const name = command[0]!.toLowerCase();
  const before = commandStats(target)[name] ?? { calls: 0, usec: 0 };
  const result = bench(requests);
  const after = commandStats(target)[name] ?? { calls: 0, usec: 0 };
  const calls = after.calls - before.calls;
  return {
    command: command.join(' '),
    connections,
    requests,
    ...result,
    usec_per_call: calls ? (after.usec - before.usec) / calls : NaN,
  };
}

const PROBE_DIR = join(ROOT, 'packages/harness');
/** The client probe runs on every runtime: its source (Bun, Deno) and its bundle (Node). */
const PROBE = { source: 'probe/client-loop.ts', bundle: 'dist/client-loop.js' };

/** Bundles the probe for Node, as the Node apps are bundled. */
export async function buildProbe(): Promise<void> {
  const proc = spawnTracked('bun', [join(ROOT, 'scripts/build-node-app.ts'), PROBE.source, PROBE.bundle], {
    cwd: PROBE_DIR,
  });
  const { code } = await proc.exited;
  if (code !== 0) throw new Error(`bundling ${PROBE.source} for Node failed: ${proc.tail().slice(-3).join(' / ')}`);
}

/** Runs the probe on a runtime and returns the JSON line it prints last. */
async function runProbe<T>(runtime: RuntimeName, env: Record<string, string>, timeoutS: number): Promise<T> {
  const [cmd, ...args] = scriptCommand(runtime, PROBE.source, PROBE.bundle);
  const proc = spawnTracked(cmd!, args, { cwd: PROBE_DIR, env: { ...process.env, ...env } });
  const timer = setTimeout(() => killTree(proc.pid, 1000), timeoutS * 1000);
  const { code, signal } = await proc.exited;
  clearTimeout(timer);
  removeClientLeftovers(proc.pid);
  const line = proc
    .tail()
    .filter((l) => l.startsWith('{'))
    .at(-1);
  if (code !== 0 || !line)
    throw new Error(`${PROBE.source} on ${runtime} exited ${signal ?? code}: ${proc.tail().slice(-3).join(' / ')}`);
  return JSON.parse(line) as T;
}

/**
 * The client alone on one runtime: reads at the contenders' concurrency, each body checked for the golden length; then
 * the transforms alone, in the same process.
 */
export async function measureClientCeiling(
  runtime: RuntimeName,
  env: Record<string, string>,
  o: { seconds: number; warmupS: number; concurrency: number; expectBytes: number },
): Promise<ClientCeiling> {
  const loopEnv = {
    ...env,
    PROBE_SECONDS: String(o.seconds),
    PROBE_WARMUP_SECONDS: String(o.warmupS),
    PROBE_CONCURRENCY: String(o.concurrency),
    EXPECT_BYTES: String(o.expectBytes),
  };
  const out = await runProbe<{
    reads: number;
    seconds: number;
    cpu_us: number;
    wrong: number;
    transform_us: { plain: number; direct: number };
  }>(runtime, loopEnv, o.warmupS + o.seconds + 60);
  if (out.wrong) throw new Error(`${out.wrong} of ${out.reads} bodies were not the golden body's length`);
  return {
    runtime,
    client: env.REDIS_CLIENT!,
    concurrency: o.concurrency,
    seconds: out.seconds,
    rps: out.reads / out.seconds,
    cpu_us_per_read: out.cpu_us / out.reads,
    transform_us: out.transform_us,
  };
}
