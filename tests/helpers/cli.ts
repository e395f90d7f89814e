// Runs the bench CLI as a user would and watches, through /proc, every process it starts
// and every TCP socket those processes listen on.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../../packages/harness/src/system/paths';
import { isAlive, processTree } from '../../packages/harness/src/system/proc';

export const FAKE_APPS = join(ROOT, 'tests/fixtures/apps');
export const CLI = join(ROOT, 'packages/harness/src/cli/bench.ts');

/** pid + start time, so a reused pid is never mistaken for a survivor. */
type ProcId = { pid: number; start: string; cmd: string };

function procId(pid: number): ProcId | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const start = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]!;
    return { pid, start, cmd: readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim() };
  } catch {
    return null;
  }
}

/**
 * The processes a run starts to measure: Redis or Valkey, the apps (Bun, Node, Next) and oha; not `x --version` probes.
 */
const BENCH_PROCESS =
  /^(?!\S+ --version$)((redis|valkey)-server |oha |taskset |bun src\/server\.ts|node (dist\/server\.js|\S*next))/;
export const started = (seen: ProcId[]) => seen.filter((p) => BENCH_PROCESS.test(p.cmd));
/** The headless browser the full report starts for report.png (report/browser.ts). */
export const CHROMIUM_PROCESS = /(^|\/)(chromium(-browser)?|chrome|headless_shell)( |$)/;
/** Contender apps (not Redis, oha or helpers). */
const APP_PROCESS = /^(bun src\/server\.ts|node (dist\/server\.js|\S*next))/;

/**
 * The processes seen that still run: the same pid and start time, and not a zombie (exited, its status not yet read by
 * its parent: the orphan guard's shell waits up to 1.4 s for PID 1 to reap it, and a zombie holds no port or file).
 */
export const survivors = (seen: ProcId[]) => seen.filter((p) => procId(p.pid)?.start === p.start && isAlive(p.pid));

/** Local addresses of the TCP sockets in LISTEN state owned by the given pids. */
export function listeners(pids: number[]): string[] {
  const inodes = new Set<string>();
  for (const pid of pids) {
    try {
      for (const fd of readdirSync(`/proc/${pid}/fd`)) {
        const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
        if (m) inodes.add(m[1]!);
      }
    } catch {}
  }
  const out: string[] = [];
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(file, 'utf8').split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length > 9 && f[3] === '0A' && inodes.has(f[9]!)) out.push(decodeAddress(f[1]!));
    }
  }
  return out;
}

function decodeAddress(hex: string): string {
  const [addr, port] = hex.split(':');
  const p = parseInt(port!, 16);
  if (addr!.length === 8)
    return `${(addr!.match(/../g) ?? [])
      .reverse()
      .map((b) => parseInt(b, 16))
      .join('.')}:${p}`;
  return `[${addr}]:${p}`; // IPv6, raw
}

export interface CliRun {
  code: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  seen: ProcId[];
  listening: string[];
  outDir: string;
  /** Milliseconds from the signal sent by onLine (if any) to exit. */
  exitAfterSignalMs: number | null;
  /** Most contender app processes seen alive at one time (sampled every 100 ms). */
  peakApps: number;
}

export async function runCli(
  args: string[],
  opts: {
    env?: Record<string, string>;
    timeoutMs?: number;
    outDir?: string;
    defaultOut?: boolean;
    /** Run as a user does, with no --report flag: the full report, charts and report.png (a browser) included. */
    fullReport?: boolean;
    onLine?: (line: string, ctl: { pid: number; kill: (sig: NodeJS.Signals) => void; seen: ProcId[] }) => void;
  } = {},
): Promise<CliRun> {
  const outDir = opts.outDir ?? mkdtempSync(join(tmpdir(), 'bench-test-'));
  // Tests check behaviour, not the machine's noise: no re-measuring for CPU steal. No charts or browser either
  // (--report text) unless the test asks for the full report (fullReport, or --report full) where it reads them.
  const given = (flag: string) => args.some((a) => a === flag || a.startsWith(`${flag}=`));
  const extra = [
    ...(args.includes('--resume') || opts.defaultOut ? [] : ['--out', outDir]),
    ...(given('--max-steal') || args.includes('--resume') ? [] : ['--max-steal', '100']),
    ...(given('--report') || opts.fullReport || args.includes('--help') || args.includes('--list')
      ? []
      : ['--report', 'text']),
  ];
  const child = spawn('bun', [CLI, ...args, ...extra], {
    cwd: ROOT,
    env: { ...process.env, BENCH_APPS_DIR: FAKE_APPS, ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const seen = new Map<string, ProcId>();
  const listening = new Set<string>();
  let signalledAt: number | null = null;
  let peakApps = 0;
  const watch = () => {
    const tree = processTree(child.pid!);
    let apps = 0;
    for (const pid of tree) {
      const id = procId(pid);
      // A process caught while it exits has an empty command line: it does not replace the one seen before.
      if (id && pid !== child.pid && (id.cmd || !seen.has(`${pid}:${id.start}`))) seen.set(`${pid}:${id.start}`, id);
      if (id && APP_PROCESS.test(id.cmd) && isAlive(pid)) apps++;
    }
    peakApps = Math.max(peakApps, apps);
    for (const a of listeners(tree)) listening.add(a);
  };
  const timer = setInterval(watch, 100);
  let stdout = '';
  let stderr = '';
  let buffered = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d: Buffer) => {
    stderr += d;
    buffered += d;
    const lines = buffered.split('\n');
    buffered = lines.pop()!;
    for (const line of lines) {
      opts.onLine?.(line, {
        pid: child.pid!,
        seen: [...seen.values()],
        kill: (sig) => {
          watch();
          signalledAt = Date.now();
          child.kill(sig);
        },
      });
    }
  });
  // A safety net, not a bound: each test bounds the harness's work (rounds, windows, contenders), which on a machine
  // 3× slower than the developers' still ends well inside bun's per-test limit (npm test: 600 s), as this does.
  const limit = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 600_000);
  const [code, signal] = await new Promise<[number | null, string | null]>((r) =>
    child.on('exit', (c, s) => r([c, s])),
  );
  const exitAfterSignalMs = signalledAt === null ? null : Date.now() - signalledAt;
  clearInterval(timer);
  clearTimeout(limit);
  return {
    code,
    signal,
    stdout,
    stderr,
    seen: [...seen.values()],
    listening: [...listening],
    outDir,
    exitAfterSignalMs,
    peakApps,
  };
}

export function resultsIn(outDir: string): { dir: string; json: any } {
  const dir = readdirSync(outDir)
    .filter((d) => d !== 'latest')
    .map((d) => join(outDir, d))[0]!;
  return { dir, json: JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8')) };
}

/** How many of the harness's last log lines a failed check carries (npm test prints them again at its end). */
const LOG_TAIL = 25;

/**
 * Runs a test's checks on a CLI run; when one fails, prints the harness's log first, so the failure says why, and adds
 * the log's last lines to the failure itself (its JUnit entry, and npm test's closing list of failed tests).
 */
export async function explained<T>(run: CliRun, checks: () => T | Promise<T>): Promise<T> {
  try {
    return await checks();
  } catch (e) {
    console.error(`the run's log:\n${run.stderr}`);
    const tail = run.stderr.trimEnd().split('\n').slice(-LOG_TAIL).join('\n');
    if (e instanceof Error) e.message += `\nthe run (exit ${run.code ?? run.signal}) ended its log with:\n${tail}`;
    throw e;
  }
}

/** Wait (bounded) until none of the processes is alive; return those still alive. */
export async function settle(seen: ProcId[], ms = 5000): Promise<ProcId[]> {
  const deadline = Date.now() + ms;
  while (survivors(seen).length && Date.now() < deadline) await Bun.sleep(100);
  return survivors(seen);
}

/**
 * The first of the harness's processes whose /proc cmdline (NULs as spaces) `match` accepts (bounded: 300 polls of 50
 * ms).
 */
async function inTree(harness: number, match: (cmd: string) => boolean): Promise<number | null> {
  for (let i = 0; i < 300; i++) {
    for (const pid of processTree(harness)) {
      let cmd = '';
      try {
        cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
      } catch {}
      if (cmd && match(cmd)) return pid;
    }
    await Bun.sleep(50);
  }
  return null;
}

/**
 * A runCli onLine handler that kills the private Redis (SIGKILL) 700 ms into the measured window
 * whose oha writes a file holding `marker`, watching from the first line `ready` accepts. Redis and
 * the oha are looked for in /proc from then on: the run's lines can all come before Redis is up.
 */
export function redisKiller(ready: (line: string) => boolean, marker: string) {
  let watching = false;
  let killed = false;
  let killedAt = 0;
  const kill = async (harness: number) => {
    const redis = await inTree(harness, (cmd) => /^redis-server 127\.0\.0\.1:\d+/.test(cmd));
    if (
      redis === null ||
      (await inTree(harness, (cmd) => cmd.split(' ')[0]!.endsWith('oha') && cmd.includes(marker))) === null
    )
      return;
    killed = true;
    setTimeout(() => {
      killedAt = performance.now();
      process.kill(redis, 'SIGKILL');
    }, 700);
  };
  return {
    killed: () => killed,
    /** Milliseconds since Redis was killed (NaN before). */
    sinceKill: () => (killedAt ? performance.now() - killedAt : Number.NaN),
    onLine: (line: string, ctl: { pid: number }) => {
      if (watching || !ready(line)) return;
      watching = true;
      void kill(ctl.pid);
    },
  };
}
