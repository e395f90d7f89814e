// What the phases of a benchmark share: the results being written, the private Redis, the
// golden body, and the processes a signal handler must take down.
import type { RunningApp } from '../measure/apps';
import type { Contender } from '../model/contenders';
import type { RunContext } from '../measure/measure';
import type { Live } from '../live/session';
import { isAlive } from '../system/proc';
import { cli, type RedisTarget } from '../topology/redis';
import type { ContenderResult, PointResult, Results, RunRecord, Settings } from '../model/results';

/** Everything a signal handler needs to save partial results and clean up. */
export interface Session {
  results: Results | null;
  runDir: string | null;
  redis: RedisTarget | null;
  apps: Map<string, RunningApp>;
  /** --workload live: the writer, stopped with Redis. */
  live?: Live | null;
  /** What prepare started beside the private Redis (a second server, a delay proxy), stopped with it. */
  topology?: { stop(): Promise<void> }[];
}

export interface Suite {
  results: Results;
  settings: Settings;
  runDir: string;
  redis: RedisTarget;
  /** Every server the apps read, by name (--servers); the first, settings.servers[0], is `redis`. */
  servers: Record<string, RedisTarget>;
  /** --redis-rtt: the delay proxy in front of each server, by name; empty without one. */
  proxies: Record<string, { pid: number; url: string }>;
  golden: string;
  /** Manifest entries by contender name. */
  byName: Map<string, Contender>;
  session: Session;
  ctx: RunContext;
  /** Date.now() when the command started: --budget counts from here. */
  startedAt: number;
  /** Flush results.json (atomically) and let the signal handlers know about it. */
  save(): void;
  appEnv(c: Contender): Record<string, string>;
}

/** The manifest entry a result measures (a --self-check twin measures its original). */
export const contenderOf = (suite: Suite, r: ContenderResult) => suite.byName.get(r.self_check_of ?? r.name)!;

export function redisAlive(redis: RedisTarget): boolean {
  if (redis.server && !isAlive(redis.server.pid)) return false;
  try {
    return cli(redis, ['PING']).trim() === 'PONG';
  } catch {
    return false;
  }
}

/** Keep a spoilt run for inspection, outside the runs the statistics use. */
export function discard(point: PointResult, run: RunRecord, fault: string): void {
  (point.discarded_runs ??= []).push({ ...run, fault });
}

export function fail(r: ContenderResult, status: 'failed' | 'invalid', reason: string, output?: string[]): void {
  r.status = status;
  r.reason = reason;
  if (output?.length) r.output = output.slice(-50);
  for (const p of r.points) if (p.status === 'incomplete') p.status = status;
}

export async function stopApp(session: Session, key: string): Promise<void> {
  const app = session.apps.get(key);
  session.apps.delete(key);
  if (app) await app.stop();
}

export async function stopAll(session: Session): Promise<void> {
  await Promise.all([...session.apps.keys()].map((n) => stopApp(session, n)));
  await session.live?.stop();
  session.live = null;
  await Promise.all((session.topology ?? []).map((t) => t.stop()));
  session.topology = [];
  await session.redis?.stop();
  session.redis = null;
}

/** The server a contender reads (its --servers twin's, or the first). */
export const serverOf = (suite: Suite, c: Pick<Contender, 'server'>) =>
  c.server ? suite.servers[c.server]! : suite.redis;

/** A contender's measuring context: the counters of the server it reads. */
export const ctxFor = (suite: Suite, c: Pick<Contender, 'server' | 'settings'>): RunContext => ({
  ...suite.ctx,
  ...(c.server ? { redis: serverOf(suite, c), proxy: suite.proxies[c.server] } : {}),
  write: c.settings.write,
});

/** Every server the run started still answers. */
export const serversAlive = (suite: Suite) =>
  Object.values(suite.servers).every((t) => redisAlive(t) && (t.nodes ?? []).every((n) => isAlive(n.pid))) &&
  Object.values(suite.proxies).every((p) => isAlive(p.pid));
