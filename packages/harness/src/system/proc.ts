// Child processes and /proc accounting. Every child is spawned from an argument array
// (never a shell string), in its own process group of the harness's session, and registered so
// that any exit path of the harness can take the whole tree down.
import { spawn, spawnSync, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

let ticksPerSecond: number | undefined;
/** Clock ticks per second (getconf CLK_TCK), asked once when first needed: importing this starts no process. */
export const clockTicks = () =>
  (ticksPerSecond ??= Number(spawnSync('getconf', ['CLK_TCK']).stdout?.toString().trim()) || 100);

export interface Tracked {
  child: ChildProcess;
  pid: number;
  /** Last lines of combined stdout/stderr, for failure reports. */
  tail(): string[];
  exited: Promise<{ code: number | null; signal: string | null }>;
  hasExited(): boolean;
}

const live = new Set<number>();
let registry: string | null = null;

/**
 * The orphan guard reads this file when the harness dies; keep it equal to `live`. Written to a
 * temporary file and renamed: a harness killed mid-write must never leave it truncated (an empty
 * registry would orphan every app).
 */
function syncRegistry() {
  if (!registry) return;
  try {
    writeFileSync(`${registry}.tmp`, `${[...live].join('\n')}\n`);
    renameSync(`${registry}.tmp`, registry);
  } catch {}
}

/**
 * Start a watcher that outlives this process by at most half a second and then kills every
 * process group still registered, so even `kill -9` of the harness leaves nothing running.
 */
export function startOrphanGuard(): void {
  registry = join(mkdtempSync(join(tmpdir(), 'stream-bench-')), 'process-groups');
  syncRegistry();
  spawn('bash', [join(import.meta.dir, 'orphan-guard.sh'), String(process.pid), registry], {
    detached: true,
    stdio: 'ignore',
  }).unref();
  process.on('exit', () => {
    killAllSync();
    if (registry) rmSync(dirname(registry), { recursive: true, force: true });
  });
}

/**
 * The processes that carry this harness's mark (BENCH_ORPHAN_GUARD) but are not in its tree any more: what a child
 * left behind, such as an app that put itself in the background (`node server.js &`, setsid, a daemon mode) and
 * exited. `group`: that child's process group, still counted though tracked; any other group the harness tracks (a
 * neighbour being stopped) is not.
 */
export function markedPids(group?: number): number[] {
  if (!registry) return [];
  const mark = `BENCH_ORPHAN_GUARD=${dirname(registry)}`;
  const own = new Set([process.pid, ...processTree(process.pid)]);
  const pgid = (pid: number) => {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
  };
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d) && !own.has(Number(d)))
    .map(Number)
    .filter((pid) => {
      try {
        if (!readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(mark)) return false;
        const g = pgid(pid);
        return g === group || !live.has(g);
      } catch {
        return false;
      }
    });
}

/** Where scratch files go: inside the guard's directory once it runs, so it removes them even after `kill -9`. */
export const scratchDir = () => (registry ? dirname(registry) : tmpdir());

/**
 * Each child's own process group, in the harness's session. Node's `detached` starts a new session
 * (setsid), and on Linux a new session is a new scheduler autogroup (kernel.sched_autogroup_enabled):
 * the CPU is then shared between the app, Redis, each oha and the harness as whole groups, and two
 * apps measured side by side kept unequal shares for a whole launch. Measured here, two identical
 * apps under load at once, 1 s windows: sd of their ln ratio 12.2% with a new session each (7.8%
 * between launches), 5.5% in one session (1.7% between launches). perl makes the process group
 * and execs the command, so the pid stays the command's (setup installs perl where it is missing;
 * without it, each child gets a new session as before: docs/methodology.md).
 */
const PERL = Bun.which('perl');
const NEW_GROUP = 'setpgrp(0, 0) or die "setpgrp: $!\\n"; exec { $ARGV[0] } @ARGV or die "exec $ARGV[0]: $!\\n"';

/** Where spawnTracked starts children, and whether the kernel gives each session its own autogroup (null: unknown). */
export function childSessions(): { session: 'harness' | 'own'; sched_autogroup: boolean | null } {
  let autogroup: boolean | null = null;
  try {
    autogroup = readFileSync('/proc/sys/kernel/sched_autogroup_enabled', 'utf8').trim() === '1';
  } catch {}
  return { session: PERL ? 'harness' : 'own', sched_autogroup: autogroup };
}

export function spawnTracked(cmd: string, args: string[], opts: SpawnOptions & { keepLines?: number } = {}): Tracked {
  const keep = opts.keepLines ?? 50;
  const lines: string[] = [];
  let partial = '';
  const cwd = opts.cwd?.toString();
  const found = cmd.includes('/')
    ? existsSync(resolve(cwd ?? '.', cmd))
    : Bun.which(cmd, { PATH: opts.env?.PATH ?? process.env.PATH, cwd });
  // A command not found is spawned as is, so that its error is spawn's own ENOENT.
  const [file, argv, detached] =
    found && PERL ? [PERL, ['-e', NEW_GROUP, '--', cmd, ...args], false] : [cmd, args, true];
  // PERL_BADLANG=0: no warning from perl on a machine whose locale is not installed. BENCH_ORPHAN_GUARD marks the
  // child and what it starts, for the guard to find a child spawned just before a kill -9, not yet registered.
  const mark = registry ? { BENCH_ORPHAN_GUARD: dirname(registry) } : {};
  const env = detached
    ? { ...(opts.env ?? process.env), ...mark }
    : { ...(opts.env ?? process.env), PERL_BADLANG: '0', ...mark };
  const child = spawn(file, argv, { ...opts, env, detached, stdio: ['ignore', 'pipe', 'pipe'] });
  const collect = (chunk: Buffer) => {
    const parts = (partial + chunk.toString()).split('\n');
    partial = parts.pop() ?? '';
    for (const line of parts) {
      lines.push(line);
      if (lines.length > keep) lines.shift();
    }
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  let done = false;
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => {
    child.on('error', (err) => {
      lines.push(`spawn ${cmd}: ${err.message}`);
      done = true;
      resolve({ code: -1, signal: null });
    });
    // Output still in the pipes arrives before 'close'; wait for it briefly (a surviving
    // grandchild can hold the pipes open, so not for 'close' alone).
    const closed = new Promise((r) => child.on('close', r));
    child.on('exit', async (code, signal) => {
      await Promise.race([closed, new Promise((r) => setTimeout(r, 250))]);
      done = true;
      // The group stays registered while anything in it lives (e.g. a crashed app's workers).
      if (child.pid && processTree(child.pid).length === 0 && live.delete(child.pid)) syncRegistry();
      resolve({ code, signal });
    });
  });
  if (child.pid) {
    live.add(child.pid);
    syncRegistry();
  }
  return {
    child,
    pid: child.pid ?? -1,
    tail: () => (partial ? [...lines, partial] : [...lines]).slice(-keep),
    exited,
    hasExited: () => done,
  };
}

interface Stat {
  pid: number;
  state: string;
  ppid: number;
  pgrp: number;
  ticks: number; // utime + stime + cutime + cstime
}

function readStat(pid: number): Stat | null {
  try {
    const s = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may contain spaces and parentheses: fields start after the last ')'.
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    return { pid, state: f[0]!, ppid: +f[1]!, pgrp: +f[2]!, ticks: +f[11]! + +f[12]! + +f[13]! + +f[14]! };
  } catch {
    return null;
  }
}

function allStats(): Stat[] {
  const out: Stat[] = [];
  for (const name of readdirSync('/proc')) {
    if (name.charCodeAt(0) < 48 || name.charCodeAt(0) > 57) continue;
    const st = readStat(+name);
    if (st) out.push(st);
  }
  return out;
}

/** pid plus every live descendant, and anything still in its process group. */
export function processTree(root: number): number[] {
  return processTrees([root]);
}

/** processTree of each root, together, from one reading of /proc. */
export function processTrees(roots: number[]): number[] {
  const stats = allStats();
  const alive = new Set(stats.filter((s) => s.state !== 'Z').map((s) => s.pid));
  const children = new Map<number, number[]>();
  for (const s of stats) (children.get(s.ppid) ?? children.set(s.ppid, []).get(s.ppid)!).push(s.pid);
  const tree = new Set<number>();
  const stack = [...roots];
  while (stack.length) {
    const p = stack.pop()!;
    if (tree.has(p) || !alive.has(p)) continue;
    tree.add(p);
    stack.push(...(children.get(p) ?? []));
  }
  const groups = new Set(roots);
  for (const s of stats) if (groups.has(s.pgrp) && alive.has(s.pid)) tree.add(s.pid);
  return [...tree];
}

/** CPU ticks (user+sys, including reaped children) of these processes together; one gone counts 0. */
export function cpuTicks(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) ticks += readStat(pid)?.ticks ?? 0;
  return ticks;
}

/**
 * Idle: no CPU tick (10 ms at 100 Hz) used for this long, so under a tenth of a CPU. 50 ms let more after-work through
 * than a fixed 250 ms pause did (docs/runs/tests.md); 100 ms, no more than it.
 */
const IDLE_MS = 100;
/** How often untilIdle reads the processes' CPU. */
const IDLE_POLL_MS = 10;

/** Resolves once these processes together have used no CPU tick for IDLE_MS, or at `maxMs`: the ms it waited. */
export async function untilIdle(pids: number[], maxMs: number): Promise<number> {
  const t0 = performance.now();
  let ticks = cpuTicks(pids);
  let quietSince = t0;
  while (performance.now() - t0 < maxMs) {
    await Bun.sleep(IDLE_POLL_MS);
    const now = cpuTicks(pids);
    if (now !== ticks) [ticks, quietSince] = [now, performance.now()];
    else if (performance.now() - quietSince >= IDLE_MS) break;
  }
  return performance.now() - t0;
}

/** CPU seconds (user+sys, including reaped children) of a whole process tree. */
export function treeCpuSeconds(root: number): number {
  return cpuTicks(processTree(root)) / clockTicks();
}

/**
 * CPU ticks (user+sys) of each thread of a set of processes, by "pid/tid": one thread's own
 * time, where treeCpuSeconds sums them all (an event loop's thread among GC and I/O helpers).
 */
export function threadTicks(pids: number[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const pid of pids) {
    let tids: string[] = [];
    try {
      tids = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of tids) {
      try {
        const s = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
        const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
        out.set(`${pid}/${tid}`, +f[11]! + +f[12]!);
      } catch {}
    }
  }
  return out;
}

/** The thread ("pid/tid") that used the most CPU between two threadTicks readings, and its CPU seconds. */
export function busiestThread(before: Map<string, number>, after: Map<string, number>): { id: string; s: number } {
  let most = { id: '', s: 0 };
  for (const [id, ticks] of after) {
    const s = (ticks - (before.get(id) ?? 0)) / clockTicks();
    if (s > most.s) most = { id, s };
  }
  return most;
}

/**
 * Seconds a thread ("pid/tid") has spent runnable but waiting for a CPU (the kernel's run_delay, the second field of
 * /proc/<pid>/task/<tid>/schedstat, in ns); null where the kernel does not keep it.
 */
export function threadWaitSeconds(id: string): number | null {
  try {
    const ns = Number(readFileSync(`/proc/${id.replace('/', '/task/')}/schedstat`, 'utf8').split(' ')[1]);
    return Number.isFinite(ns) ? ns / 1e9 : null;
  } catch {
    return null;
  }
}

/** Each thread's threadWaitSeconds, by "pid/tid" (those the kernel gives). */
export function threadWaits(ids: Iterable<string>): Map<string, number> {
  const out = new Map<string, number>();
  for (const id of ids) {
    const s = threadWaitSeconds(id);
    if (s !== null) out.set(id, s);
  }
  return out;
}

/** Resident memory of a set of processes (e.g. a process tree), in MB. */
export function rssMb(pids: number[]): number {
  let kb = 0;
  for (const pid of pids) {
    try {
      const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (m) kb += +m[1]!;
    } catch {}
  }
  return kb / 1024;
}

function signalTree(pids: number[], pgrp: number, signal: NodeJS.Signals) {
  try {
    process.kill(-pgrp, signal);
  } catch {}
  for (const p of pids) {
    try {
      process.kill(p, signal);
    } catch {}
  }
}

/** Running or sleeping; a zombie (exited, not yet reaped) counts as gone. */
export const isAlive = (pid: number) => {
  const st = readStat(pid);
  return st !== null && st.state !== 'Z';
};

/** How long a tree that has stopped serving (killTree's `serving`) may take to exit before SIGKILL. */
const AFTER_SERVING_MS = 250;

/**
 * SIGTERM the tree, then SIGKILL whatever is left after graceMs. `serving`: whether the tree still serves; once it has
 * stopped, what is left gets AFTER_SERVING_MS more, not the rest of the grace (an app whose server closes on SIGTERM
 * while something else keeps its process alive).
 */
export async function killTree(root: number, graceMs = 3000, serving?: () => boolean): Promise<void> {
  if (root <= 0) return;
  let pids = processTree(root);
  signalTree(pids, root, 'SIGTERM');
  let deadline = Date.now() + graceMs;
  let stopped = false;
  while (Date.now() < deadline) {
    pids = pids.filter(isAlive);
    if (pids.length === 0) break;
    if (serving && !stopped && !serving()) {
      stopped = true;
      deadline = Math.min(deadline, Date.now() + AFTER_SERVING_MS);
    }
    await Bun.sleep(50);
  }
  signalTree(processTree(root).concat(pids).filter(isAlive), root, 'SIGKILL');
  if (live.delete(root)) syncRegistry();
}

/** Synchronous last resort for exit paths: SIGKILL every tree still registered. */
export function killAllSync(): void {
  for (const root of live) signalTree(processTree(root), root, 'SIGKILL');
  live.clear();
  syncRegistry();
}

/** CPU seconds of this process itself, and of its children that have exited and been reaped. */
export function selfCpuSeconds(): { self: number; reapedChildren: number } {
  const f = readFileSync('/proc/self/stat', 'utf8');
  const v = f
    .slice(f.lastIndexOf(')') + 2)
    .split(' ')
    .map(Number);
  return { self: (v[11]! + v[12]!) / clockTicks(), reapedChildren: (v[13]! + v[14]!) / clockTicks() };
}

/** Machine-wide CPU time from /proc/stat, in ticks: total, and stolen by the hypervisor. */
export function machineCpuTicks(): { total: number; steal: number } {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1, 9).map(Number);
  return { total: f.reduce((a, b) => a + b, 0), steal: f[7] ?? 0 };
}
