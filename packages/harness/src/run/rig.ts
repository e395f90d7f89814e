// What the apps run against, opened before the rounds: the servers (private ones from the RDB, or
// REDIS_URL's), the golden body they must all serve, the delay proxies of --redis-rtt; and each
// app built once against them (openRig: the rig a run's schedule and launcher use).
import { workloadOf } from '../workloads';
import { relative, resolve } from 'node:path';
import { SETTINGS, STREAM_KEY } from '@bench/stream';
import { type AppError, buildApp, dataKey } from '../measure/apps';
import type { Contender } from '../model/contenders';
import { isBase } from '../model/questions';
import type { Results, Settings } from '../model/results';
import type { ServerName } from '../model/servers';
import { ROOT } from '../system/paths';
import { info, log, progress } from '../system/progress';
import type { DelayProxy } from '../topology/delay';
import {
  contractBodies,
  goldenBody,
  redactUrl,
  type RedisTarget,
  streamInfo,
  useExistingRedis,
} from '../topology/redis';
import { serverRecord, serverTwins, startProxies, startServers } from '../topology/servers';
import { type CliOptions, privateRedisNeeded } from './options';
import { contenderOf, fail, type Rig, type Session } from './state';
import { handicapEnv } from './calibrate';
import { tlsEnv } from '../topology/tls';

/** What every app reads: where Redis is, which client and workload, and each setting's value. */
export function appEnvironment(c: Contender, redisUrl: string, workload: string): Record<string, string> {
  const settings = Object.entries(SETTINGS).map(([k, d]) => [d.env, (c.settings as Record<string, string>)[k]!]);
  // REDIS_CLUSTER: '0' unless a cluster twin's own env says 1, whatever the caller's shell holds.
  return {
    REDIS_URL: redisUrl,
    REDIS_CLIENT: c.client,
    WORKLOAD: workload,
    STREAM_KEY,
    REDIS_CLUSTER: '0',
    ...Object.fromEntries(settings),
  };
}

export const serverNamesOf = (s: Settings) => (s.servers ?? ['redis']) as ServerName[];
/** Where an app reads the server: through its delay proxy (--redis-rtt), over TLS (--redis-tls), else directly. */
export const appUrlOf = (servers: Record<string, RedisTarget>, proxies: Record<string, DelayProxy>, name: string) =>
  proxies[name]?.url ?? servers[name]!.tls?.url ?? servers[name]!.url;

/**
 * The servers (a private one per --servers name from the RDB, or REDIS_URL's), the golden body they all serve, and the
 * delay proxies of --redis-rtt.
 */
export async function openServers(opts: CliOptions, results: Results, session: Session) {
  const settings = results.settings;
  const externalUrl = process.env.REDIS_URL;
  const serverNames = serverNamesOf(settings);
  // A resumed run's settings come from its results.json, so they are checked here too.
  const refused =
    externalUrl && privateRedisNeeded({ workload: settings.workload, entries: false, servers: serverNames });
  if (refused) throw new Error(refused);
  const rdb = externalUrl ? null : resolve(ROOT, (opts.resume ? results.data.rdb : opts.rdb) ?? 'dump.rdb');
  const servers = externalUrl
    ? { redis: useExistingRedis(externalUrl) }
    : await startServers(serverNames, rdb!, opts.redisPort, settings.placement.redis, session, !!settings.redis_tls);
  const redis = (session.redis = servers[serverNames[0]!]!);
  const stream = streamInfo(redis, STREAM_KEY, rdb);
  const { golden, stream: pairs } = contractBodies(redis, STREAM_KEY, settings.workload);
  for (const [name, target] of Object.entries(servers)) {
    if (goldenBody(target, STREAM_KEY, settings.workload) !== golden)
      throw new Error(
        `${name} reads ${STREAM_KEY} differently from ${serverNames[0]} (same RDB): the servers cannot be compared`,
      );
  }
  results.data.servers = Object.entries(servers).map(([name, t]) =>
    serverRecord(name as ServerName, t, externalUrl ? redactUrl(t.url) : t.url),
  );
  const bodyBytes = Buffer.byteLength(golden);
  if (opts.resume && (stream.length !== results.data.entries || bodyBytes !== results.data.body_bytes)) {
    throw new Error(
      `the stream now has ${stream.length} entries (${bodyBytes} bytes), the run being resumed had ` +
        `${results.data.entries} (${results.data.body_bytes}): start a new run instead`,
    );
  }
  // Inside the checkout the path is kept relative, so a results.json says nothing about the machine.
  const rdbRecorded = rdb && !relative(ROOT, rdb).startsWith('..') ? relative(ROOT, rdb) : rdb;
  Object.assign(results.data, {
    rdb: rdbRecorded,
    redis_url: externalUrl ? redactUrl(externalUrl) : null,
    entries: stream.length,
    memory_bytes: stream.memoryBytes,
    body_bytes: bodyBytes,
  });
  info(
    `${externalUrl ? `redis ${redactUrl(externalUrl)}` : `${serverNames[0]} (private, ${redis.url}, from ${rdb})`}: ` +
      `${STREAM_KEY} has ${stream.length} entries, ${(stream.memoryBytes / 1024).toFixed(1)} KB; ` +
      `body ${golden.length} bytes`,
  );
  const proxies = await startProxies(servers, results, session);
  return { servers, redis, golden, pairs, proxies };
}

/** Build each app once (static Next variants read Redis here); a failed build fails its contenders. */
export async function buildAll(results: Results, rig: Rig): Promise<void> {
  const todo = results.contenders.filter((r) => r.status === 'incomplete');
  // One build per app and build command: runtimes that declare the same build share it; clients and settings never
  // differ.
  const contenders = todo.map((r) => contenderOf(rig.byName, r)).filter((c) => c.build);
  // Keyed by app folder: an --against twin's app of the same name is another folder, built apart.
  const builds = new Map(contenders.map((c) => [`${c.appDir} ${JSON.stringify(c.build)}`, c]));
  const key = dataKey(rig.golden);
  for (const c of builds.values()) {
    const what = `${c.app}${isBase(c.name) ? ` of ${results.settings.against?.spec}` : ''} (${c.build!.join(' ')})`;
    info(`build apps/${what} …`);
    progress({ phase: 'building', contender: `apps/${c.app}`, etaS: null });
    try {
      info(`build apps/${what}: ${await buildApp(c, rig.appEnv(c), key)}`);
    } catch (e) {
      const err = e as AppError;
      for (const r of todo) {
        const theirs = rig.byName.get(r.self_check_of ?? r.name);
        if (theirs?.appDir === c.appDir && JSON.stringify(theirs.build) === JSON.stringify(c.build))
          fail(r, 'failed', err.message, err.output);
      }
      // Its last lines, as the reason promises (all 50 kept are in results.json).
      const tail = (err.output ?? []).slice(-10).map((l) => `  | ${l}`);
      log([`build apps/${what}: FAILED: ${err.message}`, ...tail].join('\n'));
    }
  }
}

/** The servers, the golden body, the manifests by name and each app's environment: what the apps run against. */
export async function openRig(
  opts: CliOptions,
  results: Results,
  runDir: string,
  session: Session,
  all: Contender[],
  twins: Contender[],
): Promise<Rig> {
  const settings = results.settings;
  const { servers, redis, golden, pairs, proxies } = await openServers(opts, results, session);
  const first = serverNamesOf(settings)[0]!;
  const manifests = [...all, ...serverTwins(all, serverNamesOf(settings)).twins, ...twins];
  return {
    servers,
    proxies,
    golden,
    pairs,
    session,
    byName: new Map(manifests.map((c) => [c.name, c])),
    ctx: {
      workload: workloadOf(settings.workload),
      placement: settings.placement,
      redis,
      runDir,
      proxy: proxies[first],
      ...(settings[settings.workload] ? { own: settings[settings.workload] } : {}),
    },
    appEnv: (c) => {
      const tls = servers[c.server ?? first]!.tls;
      return {
        ...appEnvironment(c, appUrlOf(servers, proxies, c.server ?? first), settings.workload),
        ...(tls ? tlsEnv(tls.ca) : {}),
        ...c.env,
        ...handicapEnv(results, c.name),
      };
    },
  };
}
