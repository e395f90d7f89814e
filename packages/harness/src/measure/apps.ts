// App lifecycle: build (skipped when nothing it depends on changed), start, wait for the
// first answer, stop with its whole process tree.
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { isAbsolute, join, resolve, sep } from 'node:path';
import type { Contender } from '../model/contenders';
import { ROOT } from '../system/paths';
import { pinned } from '../system/placement';
import { listensOn, onFreePort, portTaken } from '../system/net';
import { isAlive, killTree, markedPids, processTree, spawnTracked, type Tracked } from '../system/proc';

export class AppError extends Error {
  constructor(
    message: string,
    readonly output: string[] = [],
  ) {
    super(message);
  }
}

function hashTree(dir: string, h: ReturnType<typeof createHash>, skip: Set<string>) {
  for (const name of readdirSync(dir).sort()) {
    if (skip.has(name)) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) hashTree(p, h, skip);
    else h.update(p).update(readFileSync(p));
  }
}

/**
 * The data a build may depend on besides its sources: the stream (static pages embed it), for the apps whose build
 * reads it (Contender.buildReadsData). The workload is a start-time choice: no build reads it.
 */
export const dataKey = (golden: string) => createHash('sha256').update(golden).digest('hex');

/**
 * The shared packages' sources an app builds with (packages/stream, and packages/raw-reader, which stream's raw/ files
 * re-export): its own checkout's (an --against worktree), else this one's.
 */
function packageSources(appDir: string): string[] {
  return ['stream', 'raw-reader'].map((name) => {
    const theirs = resolve(appDir, `../../packages/${name}/src`);
    return existsSync(theirs) ? theirs : join(ROOT, `packages/${name}/src`);
  });
}

/** The files of a checkout's root that every build reads: the dependencies' manifest, their lockfile, bun's config. */
export const ROOT_INPUTS = ['package.json', 'bun.lock', 'bunfig.toml'];

/** The files of the checkout outside the app's folder that its build or start names (a build script). */
export function namedFiles(c: Contender): string[] {
  const root = resolve(c.appDir, '..', '..');
  return [...(c.build ?? []), ...c.start]
    .filter((a) => a.includes('/') && !isAbsolute(a))
    .map((a) => resolve(c.appDir, a))
    .filter((f) => !f.startsWith(c.appDir + sep) && f.startsWith(root + sep) && !f.includes(`${sep}node_modules${sep}`))
    .filter((f) => existsSync(f) && statSync(f).isFile());
}

/**
 * The files outside an app's folder that its build reads, besides packages/stream: the checkout's root ROOT_INPUTS and
 * namedFiles. What node_modules holds is the lockfile's to say.
 */
export function filesOutside(c: Contender): string[] {
  const root = resolve(c.appDir, '..', '..');
  const rootFiles = ROOT_INPUTS.map((f) => join(root, f)).filter((f) => existsSync(f));
  return [...new Set([...rootFiles, ...namedFiles(c)])];
}

/**
 * Builds the app unless its sources, the shared packages (stream, and the raw reader it re-exports), the files
 * outside its folder that it reads (filesOutside: the build script, the lockfile, bunfig.toml) and, for an app whose
 * build reads Redis, the data are unchanged.
 */
export async function buildApp(
  c: Contender,
  env: Record<string, string>,
  dataKey: string,
  timeoutMs = 300_000,
): Promise<'built' | 'cached' | 'none'> {
  if (!c.build) return 'none';
  const h = createHash('sha256')
    .update(c.buildReadsData ? dataKey : 'reads no data')
    .update(JSON.stringify(c.build));
  // What the build writes (the manifest's buildOutputs) is not a source of it.
  hashTree(c.appDir, h, new Set(['node_modules', ...c.buildOutputs]));
  for (const dir of packageSources(c.appDir)) if (existsSync(dir)) hashTree(dir, h, new Set());
  for (const f of filesOutside(c)) h.update(f).update(readFileSync(f));
  const key = h.digest('hex');
  const stampDir = join(ROOT, 'node_modules/.cache/stream-bench');
  // One stamp per app folder and build command: runtimes that share a build share its output; an
  // --against twin's folder (another checkout) has its own.
  const folderKey = createHash('sha256').update(c.appDir).update(JSON.stringify(c.build)).digest('hex').slice(0, 12);
  const stamp = join(stampDir, `build-${c.app}-${folderKey}.stamp`);
  mkdirSync(stampDir, { recursive: true });
  // Two processes (two runs, two test files) that build one folder at once would write over each other's output:
  // the second waits, then finds the build done.
  return withLock(`${stamp}.lock`, timeoutMs, () => buildLocked(c, c.build!, env, key, stamp, timeoutMs));
}

async function buildLocked(
  c: Contender,
  build: string[],
  env: Record<string, string>,
  key: string,
  stamp: string,
  timeoutMs: number,
): Promise<'built' | 'cached'> {
  // The stamp holds the inputs' key and what the output looked like once built: a build made by hand since (the
  // README's `next build` against another Redis) is not this key's output, and is built again.
  const output = c.buildOutputs.length ? join(c.appDir, c.buildOutputs[0]!) : null;
  const stamped = () => `${key}\n${output ? outputPrint(output) : ''}`;
  const outputThere = !output || existsSync(output);
  if (outputThere && existsSync(stamp) && readFileSync(stamp, 'utf8') === stamped()) return 'cached';

  const proc = spawnTracked(build[0]!, build.slice(1), {
    cwd: c.appDir,
    env: { ...process.env, ...env },
    keepLines: 50,
  });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    killTree(proc.pid, 1000);
  }, timeoutMs);
  const { code, signal } = await proc.exited;
  clearTimeout(timer);
  if (code !== 0) {
    // Stopped by its time limit, it did not crash: said as such, with the limit.
    const why = timedOut
      ? `did not finish within ${+(timeoutMs / 1000).toFixed(1)} s and was stopped`
      : `failed (${signal ?? `exit ${code}`})`;
    throw new AppError(`build of apps/${c.app} ${why}; see its output below`, proc.tail());
  }
  writeFileSync(stamp, stamped());
  return 'built';
}

/**
 * Which build the output holds, where it says: Next.js draws a new BUILD_ID at every build (its server writes a route
 * cache under the output when it runs, so times would not tell). A bundle's output holds no data, so a hand build of
 * the same sources is the same build.
 */
function outputPrint(path: string): string {
  const id = join(path, 'BUILD_ID');
  return existsSync(id) ? readFileSync(id, 'utf8').trim() : '';
}

/**
 * Runs `fn` holding `file` (created exclusively, holding this pid): a holder that died leaves a lock that is taken
 * over; a live one is waited for, at most `timeoutMs` plus its own build's limit.
 */
async function withLock<T>(file: string, timeoutMs: number, fn: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + 2 * timeoutMs;
  while (true) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' });
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const holder = Number(readFileSync(file, 'utf8') || 0);
      if (holder > 0 && !isAlive(holder)) rmSync(file, { force: true });
      else if (Date.now() > deadline) throw new AppError(`${file} is still held by process ${holder}`);
      else await Bun.sleep(200);
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(file, { force: true });
  }
}

export interface RunningApp {
  url: string;
  pid: number;
  process: Tracked;
  stop(): Promise<void>;
}

/**
 * valkey-glide leaves /tmp/glide-socket-<pid>-<uuid>.sock behind every process, closed or killed (TMPDIR is ignored).
 */
export function removeClientLeftovers(pid: number): void {
  for (const f of readdirSync('/tmp'))
    if (f.startsWith(`glide-socket-${pid}-`)) rmSync(join('/tmp', f), { force: true });
}

/**
 * The TCP ports a process tree listens on: its sockets (the socket:[inode] links of /proc/PID/fd) that its network
 * namespace's tables (/proc/PID/net/tcp and tcp6) list as listening. Empty where /proc cannot be read (another OS).
 */
export function listeningPorts(pids: number[]): number[] {
  const read = <T>(f: () => T, none: T): T => {
    try {
      return f();
    } catch {
      return none;
    }
  };
  const inodes = new Set<string>();
  for (const pid of pids)
    for (const fd of read(() => readdirSync(`/proc/${pid}/fd`), [] as string[])) {
      const m = /^socket:\[(\d+)\]$/.exec(read(() => readlinkSync(`/proc/${pid}/fd/${fd}`), ''));
      if (m) inodes.add(m[1]!);
    }
  const ports = new Set<number>();
  for (const pid of pids)
    for (const file of ['tcp', 'tcp6'])
      for (const line of read(() => readFileSync(`/proc/${pid}/net/${file}`, 'utf8'), '')
        .split('\n')
        .slice(1)) {
        // sl, local_address (hex IP:port), rem_address, st (0A: LISTEN), …, inode (the 10th field).
        const f = line.trim().split(/\s+/);
        if (f[3] === '0A' && inodes.has(f[9]!)) ports.add(Number.parseInt(f[1]!.split(':').at(-1)!, 16));
      }
  return [...ports].sort((a, b) => a - b);
}

/** Why a start timed out: slow, or (`elsewhere`: the ports its tree listens on instead) deaf to PORT. */
export function notReady(timeoutMs: number, port: number, elsewhere: number[]): string {
  const within = `not ready within ${timeoutMs / 1000}s`;
  return elsewhere.length
    ? `${within}: it listens on ${elsewhere.map((p) => `:${p}`).join(', ')}, not PORT=${port}; ` +
        'read PORT from the environment'
    : `${within} (raise --start-timeout if it is just slow)`;
}

/** How often a starting app is asked for its first answer. */
const READY_POLL_MS = 20;

/** What a start is told: its port (when left out, a free one, and another if a neighbour takes it first). */
interface StartOptions {
  port?: number;
  env: Record<string, string>;
  timeoutMs: number;
  cpuList?: string | null;
}

/** The runtimes' words for a port already bound (Node, Bun, Deno, Go and Python). */
export const ADDRESS_IN_USE = /EADDRINUSE|AddrInUse|address already in use|port \d+ in use/i;

/** An app that exited before answering because its port was taken. */
class PortLost extends AppError {}

/** Starts the app and waits for its first answer; on a port it picked, one lost to a neighbour is picked again. */
export function startApp(c: Contender, opts: StartOptions): Promise<RunningApp> {
  return onFreePort(
    opts.port,
    (port) => startOn(c, { ...opts, port }),
    (e) => e instanceof PortLost,
  );
}

async function startOn(c: Contender, opts: StartOptions & { port: number }): Promise<RunningApp> {
  const url = `http://127.0.0.1:${opts.port}${c.path}`;
  const [cmd, ...args] = pinned(opts.cpuList ?? null, c.start);
  const proc = spawnTracked(cmd!, args, {
    cwd: c.appDir,
    // BIND_HOST is for apps started by hand (three hosts): a launch here is reached on loopback.
    env: { ...process.env, NODE_ENV: 'production', ...opts.env, PORT: String(opts.port), BIND_HOST: '127.0.0.1' },
  });
  const stop = async () => {
    // WORKERS=2: each worker is a process with its own glide socket.
    const pids = [proc.pid, ...processTree(proc.pid)];
    // Done once nothing of it listens on its port any more: Elysia on Node (srvx's graceful shutdown) closes its server
    // on SIGTERM and lives on, its Redis client holding the process, until SIGKILL.
    const port = Number(new URL(url).port);
    await killTree(proc.pid, 3000, () => pids.some((pid) => listensOn(pid, port)));
    for (const pid of new Set(pids)) removeClientLeftovers(pid);
  };
  const app: RunningApp = { url, pid: proc.pid, process: proc, stop };
  const deadline = Date.now() + opts.timeoutMs;
  while (true) {
    if (proc.hasExited()) {
      const { code, signal } = await proc.exited;
      // What it started and left outside the harness's tree once it exited (`&`, setsid, a daemon mode), read before
      // its process group is stopped, and stopped too. Exited 0 with something left: it put itself in the background.
      const behind = markedPids(proc.pid);
      await stop(); // whatever it started may outlive it
      for (const pid of behind) if (isAlive(pid)) await killTree(pid, 1000);
      if (behind.length && code === 0 && !signal) {
        throw new AppError(
          `exited (code 0) before answering on ${url}, leaving process ${behind.join(', ')} in ` +
            'the background (stopped now): run the app in the foreground (no `&`, no daemon mode)',
          proc.tail(),
        );
      }
      // Once its tree is gone, a port still bound is a neighbour's.
      const lost = ADDRESS_IN_USE.test(proc.tail().join('\n')) || (await portTaken(opts.port));
      throw new (lost ? PortLost : AppError)(
        `exited (${signal ?? `code ${code}`}) before answering on ${url}`,
        proc.tail(),
      );
    }
    try {
      await fetch(url, { signal: AbortSignal.timeout(2000) });
      return app;
    } catch {}
    if (Date.now() > deadline) {
      // Where it listens instead, read before it is stopped: an app that ignores PORT is not slow.
      const elsewhere = listeningPorts([proc.pid, ...processTree(proc.pid)]).filter((p) => p !== opts.port);
      await app.stop();
      throw new AppError(notReady(opts.timeoutMs, opts.port, elsewhere), proc.tail());
    }
    // A refused connection costs next to nothing: asked often, a launch is measured sooner after the app listens.
    await Bun.sleep(READY_POLL_MS);
  }
}
