// Redis lifecycle and the harness's own view of the data. The harness talks to Redis only
// through redis-cli, so the golden body and the counters never depend on a client under test.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { contractJson, type FlatEntry, replyCommand, toJson, type Workload } from '@bench/stream';
import { freePort, onFreePort, portTaken } from '../system/net';
import { pinned } from '../system/placement';
import { killTree, scratchDir, spawnTracked, type Tracked } from '../system/proc';
import { makeCertificates, type TlsFiles, tlsServerArgs } from './tls';

export class RedisError extends Error {}

export interface RedisTarget {
  url: string;
  /** Set for the private Redis the harness started. */
  server?: { pid: number; process: Tracked; dir: string; logFile: string; command: string[] };
  /** --redis-tls: where the apps read it over TLS (rediss://), and the CA they are told to trust. */
  tls?: { url: string; ca: string };
  /**
   * A cluster's nodes (topology/cluster.ts): redis-cli follows its redirects, and its counters are summed over them.
   */
  nodes?: { url: string; pid: number }[];
  stop(): Promise<void>;
}

/** The URL without its password, for logs and results (a string that is no URL: as given, less any user:pass@). */
export function redactUrl(raw: string): string {
  if (!URL.canParse(raw)) return raw.replace(/\/\/[^@/]*@/, '//***@');
  const url = new URL(raw);
  if (url.password) url.password = '***';
  return url.toString();
}

/**
 * redis-cli's arguments and environment for a URL: the password in the environment, not on the command line where ps
 * would show it, and the user as `--user` (redis-cli takes the user of a URL with no password as the password).
 */
export function redisCliTo(raw: string): { args: string[]; env: NodeJS.ProcessEnv } {
  const url = new URL(raw);
  const [user, password] = [decodeURIComponent(url.username), decodeURIComponent(url.password)];
  url.username = '';
  url.password = '';
  return {
    args: ['-u', url.toString(), ...(user ? ['--user', user] : [])],
    env: password ? { ...process.env, REDISCLI_AUTH: password } : process.env,
  };
}

/** Run redis-cli against the target; throws RedisError on a Redis error reply or failure. */
export function cli(
  target: { url: string; nodes?: unknown[] },
  args: string[],
  { json = false, timeoutMs = 15_000 } = {},
): string {
  const to = redisCliTo(target.url);
  const res = spawnSync(
    'redis-cli',
    [...to.args, ...(target.nodes ? ['-c'] : []), ...(json ? ['--json', '-2'] : []), ...args],
    {
      env: to.env,
      encoding: 'utf8',
      timeout: timeoutMs,
      maxBuffer: 512 * 1024 * 1024,
    },
  );
  if (res.error)
    throw new RedisError(
      (res.error as NodeJS.ErrnoException).code === 'ETIMEDOUT'
        ? `no answer within ${timeoutMs / 1000} s`
        : `redis-cli failed: ${res.error.message} (is redis-cli installed? run npm run bench to set up)`,
    );
  const out = res.stdout ?? '';
  const err = (res.stderr ?? '').trim();
  // A refused password: redis-cli says so on stderr and runs the command anyway, as the default user (whose answer,
  // NOAUTH or the reply itself, is not the URL's user's).
  const auth = /^AUTH failed: .*/m.exec(err)?.[0];
  if (
    auth ||
    res.status !== 0 ||
    /^(\(error\) )?(ERR|WRONGTYPE|NOAUTH|LOADING|Could not connect)/.test(out) ||
    err.startsWith('Could not connect')
  ) {
    throw new RedisError(`redis ${args[0]}: ${auth ?? (out.trim() || err).split('\n')[0]}`);
  }
  return out;
}

/** Lines after which Redis 7.0 may hang instead of exiting (seen with module data), so stop it. */
const FATAL_LOG = new RegExp(
  [
    'Internal error in RDB',
    'Short read',
    'Wrong signature',
    "Can't handle RDB format",
    'Bad file format',
    'Fatal error loading',
    'Unrecoverable error',
  ].join('|'),
);

const IGNORED_LOG = new RegExp(
  [
    '(Redis|Valkey) is starting',
    '(Redis|Valkey) version=',
    'Configuration loaded',
    'Server initialized',
    'WARNING',
    'Ready to accept',
    'monotonic clock',
    'Running mode',
    'increased maximum number of open files',
  ].join('|'),
);

/** The lines of a Redis log that explain why it stopped (warnings level '#', startup chatter removed). */
export function redisFailureReason(log: string): string {
  const lines = log
    .split('\n')
    .map((l) => /^\d+:[A-Z] .*? [#*] (.*)$/.exec(l)?.[1] ?? '')
    .filter((l) => l && !IGNORED_LOG.test(l));
  const important = lines.filter((l) =>
    /rdb|load|module|signature|version|short read|error|can't|unable|bad|fatal|abort/i.test(l),
  );
  return (
    (important.length ? important : lines).slice(-3).join(' / ') || 'redis-server exited without a reason in its log'
  );
}

/**
 * Every redis-server the harness starts (private, cluster node, a test's): on loopback (or `bind`), nothing saved,
 * no append-only file, in the foreground, its RDB (`rdb`, loaded if present) in `dir`, and its log where given.
 */
export function serverArgs(o: { port: number; dir: string; rdb: string; logFile?: string; bind?: string }): string[] {
  const bind = o.bind ?? '127.0.0.1';
  return [
    ...['--port', String(o.port), '--bind', bind, '--protected-mode', bind === '127.0.0.1' ? 'yes' : 'no'],
    ...['--save', '', '--appendonly', 'no', '--dir', o.dir, '--dbfilename', o.rdb],
    ...(o.logFile ? ['--logfile', o.logFile] : []),
    ...['--daemonize', 'no'],
  ];
}

/** How a private Redis starts: `binary` is redis-server, or valkey-server for --server valkey (same flags and RDB). */
interface RedisStart {
  port?: number;
  timeoutMs?: number;
  cpuList?: string | null;
  binary?: string;
  install?: string;
  tls?: boolean;
}

/** A start that failed because another process bound its port (or a cluster node's bus port) first. */
export const portLost = (e: unknown) =>
  e instanceof RedisError && /Address already in use|Failed listening on port/i.test(e.message);

export async function startPrivateRedis(rdbPath: string | null, opts: RedisStart = {}): Promise<RedisTarget> {
  await checkInputs(rdbPath, opts.port);
  return onFreePort(opts.port, (port) => startOn(rdbPath, port, opts), portLost);
}

async function startOn(rdbPath: string | null, port: number, opts: RedisStart): Promise<RedisTarget> {
  const binary = opts.binary ?? 'redis-server';
  const dir = mkdtempSync(join(scratchDir(), 'stream-bench-redis-'));
  // Redis loads (and could rewrite) the file in its --dir: give it a copy, never the original.
  if (rdbPath !== null) copyFileSync(rdbPath, join(dir, 'dump.rdb'));
  const logFile = join(dir, 'redis.log');
  const args = serverArgs({ port, dir, rdb: 'dump.rdb', logFile });
  const tls = opts.tls ? await tlsPort(dir, args) : undefined;
  const command = pinned(opts.cpuList ?? null, [binary, ...args]);
  const target: RedisTarget = {
    ...(tls ? { tls } : {}),
    url: `redis://127.0.0.1:${port}`,
    server: { pid: 0, process: null as unknown as Tracked, dir, logFile, command },
    async stop() {
      await killTree(target.server!.pid, 2000);
      rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    await serve(target, opts.timeoutMs ?? 30_000);
  } catch (e) {
    await target.stop();
    throw startError(target, binary, rdbPath, opts.install, e as Error);
  }
  return target;
}

/** --redis-tls: certificates in the server's folder and a TLS port, its flags added to `args`. */
async function tlsPort(dir: string, args: string[]): Promise<RedisTarget['tls']> {
  let files: TlsFiles;
  try {
    files = makeCertificates(dir);
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw new RedisError((e as Error).message);
  }
  const port = await freePort();
  args.push(...tlsServerArgs(port, files));
  return { url: `rediss://127.0.0.1:${port}`, ca: files.ca };
}

/** The RDB file exists and is a file, and an asked port is free: each refused in one line naming the fix. */
async function checkInputs(rdbPath: string | null, port: number | undefined): Promise<void> {
  if (rdbPath !== null) {
    if (!existsSync(rdbPath))
      throw new RedisError(`RDB file not found: ${rdbPath} (pass an existing file to --rdb, or run npm run make-rdb)`);
    if (!statSync(rdbPath).isFile())
      throw new RedisError(
        `--rdb ${rdbPath} is a folder, not a file: give the .rdb file in it, or run npm run make-rdb`,
      );
  }
  if (port !== undefined && (await portTaken(port))) {
    throw new RedisError(`port ${port} on 127.0.0.1 is already in use; pick another or leave it out to get a free one`);
  }
}

/** Why the server did not start, in one line: the binary missing, the RDB it could not load, or its own error. */
function startError(
  target: RedisTarget,
  binary: string,
  rdbPath: string | null,
  install: string | undefined,
  e: Error,
): RedisError {
  const spawnErr = target.server!.process.tail().find((l) => l.startsWith(`spawn ${binary}`));
  if (spawnErr)
    return new RedisError(
      `${spawnErr} (${binary} is missing: ` +
        `${install ?? 'run npm run bench to install it, or apt-get install redis-server'})`,
    );
  if (!(e instanceof LoadError)) return new RedisError(`${binary} ${e.message}`);
  const hint = rdbPath
    ? ' (regenerate it with npm run make-rdb, or use a Redis that can ' +
      'load it, e.g. one with the module it needs, via REDIS_URL)'
    : '';
  return new RedisError(`${binary} could not start${rdbPath ? ` from ${rdbPath}` : ''}: ${e.message}${hint}`);
}

class LoadError extends Error {}

/** Spawns the server's command and waits for PING; the target's pid and process become the new ones. */
async function serve(target: RedisTarget, timeoutMs: number): Promise<void> {
  const s = target.server!;
  const [cmd, ...rest] = s.command;
  const readLog = () => (existsSync(s.logFile) ? readFileSync(s.logFile, 'utf8') : '');
  // Measured before the spawn: a server that writes its whole log (a load error included) before
  // this process reads it again must not have that log counted as old.
  const logAtStart = readLog().length;
  s.process = spawnTracked(cmd!, rest);
  s.pid = s.process.pid;
  const deadline = Date.now() + timeoutMs;
  while (true) {
    const log = readLog().slice(logAtStart);
    if (s.process.hasExited() || FATAL_LOG.test(log))
      throw new LoadError(redisFailureReason(log || s.process.tail().join('\n')));
    // After the log is read: a load error written during the last PING is named, not a timeout.
    if (Date.now() > deadline) throw new RedisError(`did not answer PING within ${timeoutMs / 1000}s`);
    try {
      // Short: a Redis stuck after a load error accepts connections but never answers.
      if (cli(target, ['PING'], { timeoutMs: 1000 }).trim() === 'PONG') return;
    } catch {}
    await Bun.sleep(50);
  }
}

/**
 * A restart that keeps the data, as a Redis with persistence would: SHUTDOWN SAVE writes every
 * acknowledged write to its RDB and closes every connection, then the same command starts it
 * again on the same port from that file. Returns how long it was down.
 */
export async function restartPrivateRedis(target: RedisTarget, timeoutMs = 30_000): Promise<number> {
  const s = target.server;
  if (!s) throw new RedisError('only the private Redis can be restarted');
  const t0 = Date.now();
  try {
    cli(target, ['SHUTDOWN', 'SAVE'], { timeoutMs: 10_000 });
  } catch {} // the connection closes before a reply
  for (let i = 0; i < 200 && !s.process.hasExited(); i++) await Bun.sleep(50);
  if (!s.process.hasExited())
    throw new RedisError(`Redis (pid ${s.pid}) did not shut down within 10 s of SHUTDOWN SAVE`);
  try {
    await serve(target, timeoutMs);
  } catch (e) {
    throw new RedisError(`Redis did not come back after its restart: ${(e as Error).message}`);
  }
  return Date.now() - t0;
}

/** A Redis of the user's (REDIS_URL), checked; `needed`: the run has no private Redis to fall back on (--target). */
export function useExistingRedis(url: string, needed = false): RedisTarget {
  try {
    cli({ url }, ['PING']);
  } catch (e) {
    throw new RedisError(unanswered(url, (e as Error).message, needed));
  }
  const refused = clusterRefusal(url, cli({ url }, ['INFO', 'cluster']));
  if (refused) throw new RedisError(refused);
  return { url, stop: async () => {} };
}

/**
 * Why REDIS_URL's PING failed (`why`: cli's error), in one line with the fix: its password refused or missing, or no
 * answer. `needed`: no private Redis to fall back on (--target).
 */
export function unanswered(url: string, why: string, needed: boolean): string {
  const or = needed ? '' : ', or unset it for a private Redis';
  if (/AUTH failed|WRONGPASS/.test(why))
    return `REDIS_URL=${redactUrl(url)} refused its user or password (${why}): correct them in REDIS_URL${or}`;
  if (/NOAUTH/.test(why))
    return `REDIS_URL=${redactUrl(url)} needs a password (${why}): give it as redis://[user]:PASSWORD@host:port${or}`;
  // rediss:// to a Redis without TLS: the handshake waits for an answer that never comes.
  const tls = url.startsWith('rediss://') ? ' (rediss:// asks for TLS: use redis:// if that Redis has none)' : '';
  return (
    `REDIS_URL=${redactUrl(url)} does not answer${tls}: ${why}; start that Redis` +
    (needed ? ' or correct REDIS_URL' : ', correct REDIS_URL, or unset it for a private Redis')
  );
}

/**
 * A cluster of your own is refused: the apps open a plain client (only the harness's own cluster sets
 * REDIS_CLUSTER=1), and one node's INFO commandstats cannot prove a read per response.
 */
export function clusterRefusal(url: string, infoCluster: string): string | null {
  return /^cluster_enabled:1\b/m.test(infoCluster)
    ? `REDIS_URL=${redactUrl(url)} is a node of a Redis Cluster, and a run reads one standalone Redis: ` +
        'point REDIS_URL at a standalone Redis, or unset it and add --topology cluster for a cluster the harness starts'
    : null;
}

export interface StreamInfo {
  length: number;
  memoryBytes: number;
}

/** The stream's length and memory; `rdb`: the file a private Redis started from, named if the stream is not in it. */
export function streamInfo(target: RedisTarget, key: string, rdb?: string | null): StreamInfo {
  const type = cli(target, ['TYPE', key]).trim();
  if (type !== 'stream') {
    const what = type === 'none' ? 'no' : `a ${type} as`;
    throw new RedisError(
      rdb
        ? `${rdb} has ${what} stream ${key}; pass dump.rdb or an RDB made by npm run make-rdb`
        : `key ${key} is ${type === 'none' ? 'missing' : `a ${type}, not a stream`} in ` +
            `${target.url} (restore dump.rdb, or regenerate it with npm run make-rdb)`,
    );
  }
  return {
    length: Number(cli(target, ['XLEN', key]).trim()),
    memoryBytes: Number(cli(target, ['MEMORY', 'USAGE', key, 'SAMPLES', '0']).trim()),
  };
}

/** The contract body, computed from redis-cli's own reading of the stream: all of it, or the page read. */
export function goldenBody(target: RedisTarget, key: string, workload: Workload = 'xrange'): string {
  return contractBodies(target, key, workload).golden;
}

/**
 * The golden body, and the stream's every pair in stream order (a repeated name each time: what the contract check
 * holds a body's repeated names to), from one read.
 */
export function contractBodies(target: RedisTarget, key: string, workload: Workload = 'xrange') {
  const entries = JSON.parse(cli(target, replyCommand(workload, key), { json: true })) as FlatEntry[];
  return { golden: contractJson(entries), stream: toJson({ shape: 'flat', entries }) };
}

export interface CommandStat {
  calls: number;
  usec: number;
  usecPerCall: number;
  /** Calls Redis refused before running them (a cluster's MOVED to another node; absent before Redis 7). */
  rejected?: number;
}

/** INFO commandstats, keyed by lower-case command name; of a cluster, summed over its nodes. */
export function commandStats(target: RedisTarget): Record<string, CommandStat> {
  if (target.nodes) return sumStats(target.nodes.map((n) => commandStats({ url: n.url, stop: async () => {} })));
  const out: Record<string, CommandStat> = {};
  for (const m of cli(target, ['INFO', 'commandstats']).matchAll(
    /^cmdstat_([^:]+):calls=(\d+),usec=(\d+),usec_per_call=([\d.]+)(?:,rejected_calls=(\d+))?/gm,
  )) {
    out[m[1]!] = { calls: +m[2]!, usec: +m[3]!, usecPerCall: +m[4]!, rejected: +(m[5] ?? 0) };
  }
  return out;
}

function sumStats(all: Record<string, CommandStat>[]): Record<string, CommandStat> {
  const out: Record<string, CommandStat> = {};
  for (const stats of all) {
    for (const [k, v] of Object.entries(stats)) {
      const t = (out[k] ??= { calls: 0, usec: 0, usecPerCall: 0, rejected: 0 });
      t.calls += v.calls;
      t.usec += v.usec;
      t.rejected = (t.rejected ?? 0) + (v.rejected ?? 0);
      t.usecPerCall = t.calls ? t.usec / t.calls : 0;
    }
  }
  return out;
}

/** The server processes whose CPU a run records: the private Redis, or every node of a cluster; null for REDIS_URL. */
export const serverPids = (t: RedisTarget): number[] | null =>
  t.server ? [t.server.pid] : (t.nodes?.map((n) => n.pid) ?? null);
