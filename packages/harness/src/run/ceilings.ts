// The ceilings around the rounds (--ceilings, --matrix): Redis alone under redis-benchmark, before
// and after the rounds, and each runtime × client of the run reading without HTTP (the client
// ceiling), after them. The HTTP ceilings are contenders, measured in round 1 (plan.ts).
import { DEFAULT_SETTINGS, type ReadWorkload } from '@bench/stream';
import { noReadPerRequest } from '../answers/verdicts';
import { buildProbe, measureClientCeiling, measureRedisCeiling } from '../measure/ceilings';
import { workloadOf } from '../workloads';
import { clientLabel, windowSeconds, type ContenderResult, type Results, type Settings } from '../model/results';
import type { RuntimeName } from '../model/runtimes';
import { info, log, progress } from '../system/progress';
import type { RedisTarget } from '../topology/redis';
import { appEnvironment } from './rig';
import { contenderOf, type Rig } from './state';

/**
 * `schedule.ceilings_s`: the wall time the ceilings (HTTP ceiling runs, redis-benchmark, client probes) add to the run.
 */
export function addCeilingSeconds(results: Pick<Results, 'schedule'>, seconds: number): void {
  const sched = (results.schedule ??= { rounds: 0, stop_reason: '', measuring_s: 0 });
  sched.ceilings_s = +((sched.ceilings_s ?? 0) + seconds).toFixed(1);
}

/** `work`, its wall time added to `schedule.ceilings_s`. */
export async function timedCeilings(results: Pick<Results, 'schedule'>, work: () => Promise<unknown>): Promise<void> {
  const t0 = Date.now();
  await work();
  addCeilingSeconds(results, (Date.now() - t0) / 1000);
}

/** Redis alone, on the contenders' command and connection count; once before the rounds and once after. */
export function redisCeiling(results: Results, servers: Record<string, RedisTarget>, save: () => void): void {
  const { settings } = results;
  if (
    settings.profile === 'seed' ||
    !workloadOf(settings.workload).ceilings.redis ||
    !results.contenders.some((r) => r.status === 'incomplete' && !noReadPerRequest(r))
  )
    return;
  const several = Object.keys(servers).length > 1;
  for (const [server, target] of Object.entries(servers)) {
    // redis-benchmark reads one node: a cluster has no single-server ceiling to compare with.
    if (target.nodes) continue;
    const of = several ? ` of ${server}` : '';
    try {
      // As long as one measured run of a contender; only a read workload has a Redis ceiling (checked above).
      const c = {
        ...measureRedisCeiling(
          target,
          settings.workload as ReadWorkload,
          settings.connections[0]!,
          windowSeconds(settings),
        ),
        ...(several ? { server } : {}),
      };
      (results.ceilings ??= { redis: [] }).redis.push(c);
      info(
        `Redis ceiling${of} (redis-benchmark, ${c.command}, c=${c.connections}): ${c.rps.toFixed(0)} req/s, ` +
          `${c.usec_per_call.toFixed(0)} µs per call inside it`,
      );
      save();
    } catch (e) {
      log(`Redis ceiling${of} not measured: ${(e as Error).message}`);
    }
  }
}

/** One contender per runtime × client × decode (each decode reads on a path of its own) of the run's dynamic ones. */
function clientPairs(contenders: ContenderResult[]): ContenderResult[] {
  const pairs = new Map<string, ContenderResult>();
  for (const r of contenders.filter((x) => x.status === 'incomplete' && !noReadPerRequest(x) && !x.self_check_of))
    pairs.set(`${r.runtime} ${r.client} ${decodeOf(r)}`, r);
  return [...pairs.values()];
}

const decodeOf = (r: Pick<ContenderResult, 'settings'>) => r.settings?.decode ?? DEFAULT_SETTINGS.decode;

/**
 * Seconds the ceilings after the rounds take (a guess: each probe's start, warmup, run and transform bench), kept out
 * of the rounds' budget.
 */
export function ceilingReserveS(s: Settings, contenders: ContenderResult[]): number {
  const { ceilings } = workloadOf(s.workload);
  if (s.profile === 'seed' || !ceilings.redis) return 0;
  const run = windowSeconds(s);
  const client = clientCeilingTimes(s);
  return run + 2 + (ceilings.clients ? clientPairs(contenders).length * (client.warmupS + client.seconds + 2) : 0);
}

/**
 * The client ceiling's warm-up and measurement: at least 2 s and 3 s, whatever the run's windows. Its CPU per read is
 * the breakdown's client part; one 1 s window after a 1 s warm-up read Node's raw reader 11–13% above 4 s after 2 s
 * (the heap and the JIT still settling; docs/runs/decode.md).
 */
const clientCeilingTimes = (s: Settings) => ({
  warmupS: Math.max(2, s.warmup_s),
  seconds: Math.max(3, windowSeconds(s)),
});

/** Each runtime × client of the run's dynamic contenders alone, with no HTTP: the client ceiling. */
export async function clientCeilings(results: Results, rig: Rig, save: () => void): Promise<void> {
  const { settings } = results;
  // The probes check each body against the golden one, which a live stream does not keep; the ceilings measure reads.
  if (settings.profile === 'seed' || !workloadOf(settings.workload).ceilings.clients) return;
  const pairs = clientPairs(results.contenders);
  if (pairs.some((r) => r.runtime.startsWith('node')))
    await buildProbe().catch((e) => log(`client ceilings: ${(e as Error).message}`));
  for (const [i, r] of pairs.entries()) {
    progress({
      phase: 'client ceilings',
      contender: clientLabel({ ...r, decode: decodeOf(r) }),
      runsLeft: pairs.length - i,
      etaS: (ceilingReserveS(settings, results.contenders) * (pairs.length - i)) / pairs.length,
    });
    const c = contenderOf(rig.byName, r);
    // The library defaults and the plain transform, whatever else the contender varies; its decode (the read path).
    // Under --redis-rtt through the first server's proxy: the ceiling at the run's own distance.
    const decode = decodeOf(r);
    const env = appEnvironment(
      { ...c, settings: { ...DEFAULT_SETTINGS, decode: c.settings.decode } },
      Object.values(rig.proxies)[0]?.url ?? rig.ctx.redis.url,
      settings.workload,
    );
    try {
      const o = {
        ...clientCeilingTimes(settings),
        concurrency: settings.connections[0]!,
        expectBytes: Buffer.byteLength(rig.golden),
      };
      const ceiling = {
        ...(await measureClientCeiling(r.runtime as RuntimeName, env, o)),
        ...(decode !== DEFAULT_SETTINGS.decode ? { decode } : {}),
      };
      ((results.ceilings ??= { redis: [] }).client ??= []).push(ceiling);
      info(
        `client ceiling ${clientLabel(ceiling)} (no HTTP, ${o.concurrency} reads in flight): ` +
          `${ceiling.rps.toFixed(0)} reads/s, ${ceiling.cpu_us_per_read.toFixed(0)} µs CPU/read`,
      );
    } catch (e) {
      log(`client ceiling ${clientLabel({ ...r, decode })} not measured: ${(e as Error).message}`);
    }
    save();
  }
}
