// What a result was measured on: recorded in every results.json.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import type { Contender } from '../model/contenders';
import { ROOT } from '../system/paths';
import { childSessions } from '../system/proc';
import type { Environment } from '../model/results';
import { RUNTIME_NAMES, RUNTIMES, type RuntimeName } from '../model/runtimes';

function firstLine(cmd: string, args: string[]): string {
  const r = spawnSync(cmd, args, { encoding: 'utf8', timeout: 10_000 });
  return r.status === 0 ? (r.stdout || r.stderr).trim().split('\n')[0]! : 'not found';
}

const readJson = (p: string) => JSON.parse(readFileSync(p, 'utf8'));

/** Exact installed version of every package an app depends on, following workspace packages. */
export function appPackageVersions(appDir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const visit = (pkgDir: string) => {
    if (!existsSync(join(pkgDir, 'package.json'))) return; // an app that runs another folder's code
    const pkg = readJson(join(pkgDir, 'package.json'));
    for (const [dep, spec] of Object.entries({ ...pkg.dependencies }) as [string, string][]) {
      if (spec.startsWith('workspace:')) {
        visit(join(ROOT, 'packages', dep.split('/')[1]!));
        continue;
      }
      const installed = join(ROOT, 'node_modules', dep, 'package.json');
      out[dep] = existsSync(installed) ? readJson(installed).version : `${spec} (not installed)`;
    }
  };
  visit(appDir);
  return Object.fromEntries(Object.entries(out).sort());
}

export function loadAverage1m(): number {
  return os.loadavg()[0]!;
}

/**
 * What the run publishes (results, screenshots, the README's section) and prose: changes there do not change what was
 * measured.
 */
const NOT_MEASURED = [':(exclude)results', ':(exclude)screenshots', ':(exclude)docs', ':(exclude)*.md'];

/** The commit measured, and whether the code differs from it (the run's own published output does not count). */
export function gitState(): { commit: string; dirty: boolean } {
  const git = (args: string[]) => spawnSync('git', args, { cwd: ROOT, encoding: 'utf8' }).stdout?.trim() ?? '';
  return {
    commit: git(['rev-parse', 'HEAD']) || 'unknown',
    dirty: git(['status', '--porcelain', '--', '.', ...NOT_MEASURED]).length > 0,
  };
}

/** Every runtime a manifest may name, by its executable's version on PATH (scripts/setup.sh pins each). */
export const runtimeVersions = (): Record<string, string> =>
  Object.fromEntries(RUNTIME_NAMES.map((rt) => [rt, firstLine(RUNTIMES[rt].exec, ['--version'])]));

/** This boot's id on Linux, where the kernel gives one. */
function bootId(): { boot_id?: string } {
  try {
    return { boot_id: readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() };
  } catch {
    return {};
  }
}

/**
 * What a hypervisor's CPU model name can hide (QEMU and Firecracker report "Intel(R) Xeon(R) Processor" for several
 * generations): the vendor, family, model and stepping (on Arm, the implementer, part, variant and revision), and the
 * last-level cache, on Linux.
 */
export function cpuId(cpuinfo = '/proc/cpuinfo', cache = '/sys/devices/system/cpu/cpu0/cache'): { cpu_id?: string } {
  try {
    const text = readFileSync(cpuinfo, 'utf8').split('\n\n')[0]!;
    const field = (name: string) => text.match(new RegExp(`^${name}\\s*:\\s*(.*)$`, 'm'))?.[1]?.trim();
    const [vendor, family, model, stepping] = ['vendor_id', 'cpu family', 'model', 'stepping'].map(field);
    // Arm names its core by implementer and part (0x41 0xd0c: Arm Neoverse N1), with variant and revision.
    const [implementer, part, variant, revision] = ['CPU implementer', 'CPU part', 'CPU variant', 'CPU revision'].map(
      field,
    );
    const core =
      vendor && family && model
        ? `${vendor} family ${family} model ${model} stepping ${stepping ?? '?'}`
        : implementer && part
          ? `implementer ${implementer} part ${part} variant ${variant ?? '?'} revision ${revision ?? '?'}`
          : null;
    return core ? { cpu_id: `${core}${lastLevelCache(cache)}` } : {};
  } catch {
    return {};
  }
}

/** Arm's CPU implementer codes (the first byte of MIDR) that name a vendor; others are shown as their code. */
const ARM_IMPLEMENTERS: Record<string, string> = {
  '0x41': 'ARM',
  '0x42': 'Broadcom',
  '0x43': 'Cavium',
  '0x46': 'Fujitsu',
  '0x48': 'HiSilicon',
  '0x4e': 'NVIDIA',
  '0x50': 'APM',
  '0x51': 'Qualcomm',
  '0x61': 'Apple',
  '0x6d': 'Microsoft',
  '0xc0': 'Ampere',
};

/** A model name that names nothing: empty, "unknown", or a bare part number. */
const unnamed = (model: string | undefined) => !model || /^\s*(unknown|0x[0-9a-f]+)?\s*$/i.test(model);

/** A "Name : value" field of the first processor of /proc/cpuinfo, or of lscpu's "Name: value" lines. */
function namedField(text: string, name: string): string | undefined {
  const value = text.match(new RegExp(`^\\s*${name}\\s*:\\s*(.*)$`, 'm'))?.[1]?.trim();
  return unnamed(value) || value === '-' ? undefined : value;
}

/**
 * The CPU model name where os.cpus() gives none (Bun and Node on Linux arm64 may say "unknown"): /proc/cpuinfo's
 * "model name" (x86), else lscpu's "Model name" (on Arm it names the core from implementer and part: "Neoverse-N1"),
 * else the implementer and part of /proc/cpuinfo ("ARM part 0xd0c"). lscpu is asked only when needed.
 */
export function cpuModelName(reported: string | undefined, cpuinfo: string, lscpu: () => string): string {
  if (!unnamed(reported)) return reported!; // as recorded so far: machine keys stay
  const first = cpuinfo.split('\n\n')[0]!;
  const named = namedField(first, 'model name') ?? namedField(lscpu(), 'Model name');
  if (named) return named;
  const implementer = first.match(/^CPU implementer\s*:\s*(\S+)/m)?.[1]?.toLowerCase();
  const part = first.match(/^CPU part\s*:\s*(\S+)/m)?.[1]?.toLowerCase();
  if (!implementer || !part) return 'unknown';
  return `${ARM_IMPLEMENTERS[implementer] ?? `implementer ${implementer}`} part ${part}`;
}

/** This machine's CPU model name (cpuModelName), from os.cpus(), /proc/cpuinfo and lscpu (C locale, no shell). */
function cpuModel(reported: string | undefined): string {
  let cpuinfo = '';
  try {
    cpuinfo = readFileSync('/proc/cpuinfo', 'utf8');
  } catch {}
  const lscpu = () =>
    spawnSync('lscpu', [], { encoding: 'utf8', timeout: 10_000, env: { ...process.env, LC_ALL: 'C' } }).stdout ?? '';
  return cpuModelName(reported, cpuinfo, lscpu);
}

/** ", L3 491520K": the last level of cache0's caches that gives its size, or nothing (no cache tables: arm64 VMs). */
function lastLevelCache(cache: string): string {
  const read = (d: string, f: string) => {
    try {
      return readFileSync(join(cache, d, f), 'utf8').trim();
    } catch {
      return '';
    }
  };
  let dirs: string[] = [];
  try {
    dirs = readdirSync(cache).filter((d) => d.startsWith('index'));
  } catch {
    return '';
  }
  const llc = dirs
    .map((d) => ({ level: +read(d, 'level'), size: read(d, 'size') }))
    .filter((c) => c.level > 0 && c.size)
    .sort((a, b) => b.level - a.level)[0];
  return llc ? `, L${llc.level} ${llc.size}` : '';
}

export function captureEnvironment(contenders: Contender[]): Environment {
  const cpus = os.cpus();
  const git = gitState();
  const apps = new Map(contenders.map((c) => [c.app, c.appDir]));
  return {
    cpu_model: cpuModel(cpus[0]?.model),
    ...cpuId(),
    logical_cpus: cpus.length,
    arch: os.arch(),
    memory_gb: +(os.totalmem() / 2 ** 30).toFixed(1),
    kernel: `${os.type()} ${os.release()}`,
    ...bootId(),
    children: childSessions(),
    load_average_1m_before: +loadAverage1m().toFixed(2),
    node: firstLine('node', ['--version']),
    // The Node that ran npm; apps run on `node` above (Node 24 LTS, installed by the setup).
    system_node: process.env.BENCH_SYSTEM_NODE
      ? firstLine(process.env.BENCH_SYSTEM_NODE, ['--version'])
      : 'not recorded',
    bun: firstLine('bun', ['--version']),
    /** Every runtime a manifest may name, by its executable on PATH (scripts/setup.sh pins each). */
    runtimes: runtimeVersions() as Partial<Record<RuntimeName, string>>,
    redis_server: firstLine('redis-server', ['--version']),
    oha: firstLine('oha', ['--version']),
    git_commit: git.commit,
    git_dirty: git.dirty,
    packages: Object.fromEntries([...apps].map(([app, dir]) => [app, appPackageVersions(dir)])),
  };
}
