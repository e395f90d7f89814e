// A published run's answers, kept in the repository (results/runs/<date>-<machine>-<commit>.json, a few KB each) so
// that a later run can say how its decided answers held up on other days and machines. Written from a results.json
// by the project's code (answers/held.ts keptOf), on every publish and by `npm run report -- DIR --keep`.
import type { Results, Verdict } from './results';
import type { ProcedureName } from '../stats/procedures';

/** One comparison as a kept run answered it, and (schema 2) what pooling it with other runs needs. */
export interface KeptAnswer {
  a: string;
  b: string;
  /** Schema 2: the comparison's id and question, as the run's family named them. */
  id?: string;
  question?: string;
  ratio: number;
  lo: number;
  hi: number;
  verdict: Verdict;
  out?: string;
  /**
   * Schema 2: the run's estimate over every round it measured (not the one at the look that stopped it): ln A − ln B,
   * its standard error and df by the run's own procedure (the family's moderated t), and each round's mean ln ratio.
   */
  estimate?: {
    ln: number;
    se: number;
    df: number;
    /** The run's own procedure, or (the first screen's chained answers, answers/picks.ts) a paired t over rounds. */
    procedure: ProcedureName | 'paired-t';
    rounds: number[];
    /**
     * Each of `rounds`' round number (from 1): a stack raced out after a few rounds, or a round a fault took, leaves
     * its answer fewer rounds than another's, and the numbers say which rounds two answers share (answers/picks.ts
     * chainRounds). Absent in records kept before it.
     */
    round_ids?: number[];
  };
}

/** Where a run was measured: what tells one machine from another for pooling (answers/across-runs.ts). */
export interface KeptHost {
  cpu_model: string;
  /** The CPU's family, model, stepping and last-level cache (Environment.cpu_id); absent in records kept before it. */
  cpu_id?: string;
  logical_cpus: number;
  /** Node's os.arch() ("x64", "arm64"); absent in records kept before it, all of them x64. */
  arch?: string;
  kernel: string;
  /** The boot it ran in (Environment.boot_id); absent in records kept before it. */
  boot_id?: string;
  /** CPU placement of app, Redis and load generator (system/placement.ts), and whether they shared the app's CPUs. */
  placement: string;
  shared_cpus: boolean;
}

export interface KeptAnswers {
  /** 2: estimates, inputs and host recorded; absent: a record kept before them (its answers' intervals only). */
  schema?: 2;
  started_at: string;
  /** The workload it measured: answers are looked up in kept runs of the same one. */
  workload: string;
  commit: string;
  /** "AMD EPYC, 2 logical CPUs, Linux 6.18.44": where it was measured. */
  machine: string;
  /** The run's sd between windows of a round (its noise), when it recorded one. */
  sd_windows: number | null;
  host?: KeptHost;
  /**
   * Per contender, the hash of what it was built and run from (run/inputs.ts inputsOf, with its runtime's version):
   * runs are pooled where both contenders' hashes equal today's.
   */
  inputs?: Record<string, string>;
  /**
   * The same, hashing only what each contender runs of packages/stream (newer records have it): where both
   * sides have them, runs are pooled on these, so a change to one path (the raw reader) keeps the others' runs.
   */
  inputs_used?: Record<string, string>;
  /**
   * inputs_used recovered afterwards from the run's commit in git (publish/kept-runs.ts recoverUsedInputs), for the
   * contenders whose whole-package inputs recomputed there equal the run's; absent: read at the run.
   */
  inputs_used_from?: 'git';
  /** How inputs_used was hashed (run/inputs.ts USED_SCHEME; absent: 1): runs pool on it only with the same scheme. */
  inputs_used_scheme?: number;
  /** Where the inputs were read: at the run, or recovered afterwards from its commit in git. */
  inputs_from?: 'run' | 'git';
  /** The default run's handicap check, by the answers' own procedure (schema 2). */
  check?: {
    contender: string;
    pct: number;
    ratio: number;
    lo: number;
    hi: number;
    detected: boolean;
    /** The standard error of its ln ratio and its df: what pooling the checks of the runs needs. */
    se?: number;
    df?: number;
  };
  answers: KeptAnswer[];
}

/** What a kept record lacks for pooling, in words (empty: nothing). */
export function lacks(k: KeptAnswers): string[] {
  const out: string[] = [];
  if (!k.answers.some((x) => x.estimate)) out.push("the estimates' standard errors");
  if (!k.inputs) out.push("the contenders' input hashes");
  if (!k.host) out.push('the CPU placement');
  return out;
}

/**
 * Why a run's answers hold no estimate to pool: one round has no standard error (a family of comparisons measured on
 * two rounds has). `rounds`: how many it measured, where known.
 */
export const tooFewRounds = (rounds?: number) =>
  `too few rounds to estimate${rounds === undefined ? '' : ` (${rounds} round${rounds === 1 ? '' : 's'})`}: ` +
  'measure 2 rounds or more (a longer --budget)';

/**
 * Whether a record's run measured too few rounds to estimate anything: no answer of it has an estimate or an interval.
 * A record kept before estimates were kept (lacks) has its answers' intervals.
 */
export const unestimated = (k: Pick<KeptAnswers, 'answers'>) => {
  const asked = k.answers.filter((x) => !x.out);
  return asked.length > 0 && asked.every((x) => !x.estimate && !Number.isFinite(x.hi));
};

/** What a run's machine is read from (machineKey). */
export type MachineOf = Pick<KeptAnswers, 'machine' | 'host'>;

/**
 * The machine a run was measured on: its hardware, a CPU model × logical CPUs × architecture. Kernel builds and VM
 * boots are other runs on the same machine; the placement is a configuration of it (placementOf), never another one.
 */
export const machineKey = (k: MachineOf) => {
  if (!k.host) return machineKind(k.machine);
  const arch = k.host.arch && k.host.arch !== 'x64' ? `, ${k.host.arch}` : '';
  return `${k.host.cpu_model}, ${k.host.logical_cpus} logical CPUs${arch}`;
};

/**
 * The host CPU a cpu_id names: its vendor, family, model and stepping (Arm: implementer, part, variant, revision), not
 * its cache, whose size a hypervisor may report as it is configured.
 */
export const hostCpu = (cpuId: string) => cpuId.split(', ')[0]!;

/** How a machine's key names the host CPU behind its model name where it must (machineKeys). */
export const hostCpuTag = (cpuId: string | undefined) => ` (${cpuId ? hostCpu(cpuId) : 'CPU not recorded'})`;

/**
 * Each run's machine among `records`: machineKey, and where the runs of one key record two host CPUs or more behind
 * its CPU model name (cpu_id: a hypervisor's generic name, like "Intel(R) Xeon(R) Processor", can hide several), the
 * host CPU too: "Intel(R) Xeon(R) Processor (GenuineIntel family 6 model 207 stepping 2), 2 logical CPUs".
 * Other hardware is another machine. That key's runs that recorded none are a machine of their own ("… (CPU not
 * recorded)"): which host CPU they ran on is not known. One host CPU recorded, or none: the key as it is.
 */
export function machineKeys(records: MachineOf[]): (k: MachineOf) => string {
  const ids = new Map<string, Set<string>>();
  for (const k of records) {
    if (!k.host?.cpu_id) continue;
    const key = machineKey(k);
    ids.set(key, (ids.get(key) ?? new Set<string>()).add(hostCpu(k.host.cpu_id)));
  }
  return (k) => {
    const key = machineKey(k);
    if ((ids.get(key)?.size ?? 0) < 2) return key;
    const [model, ...rest] = key.split(', ');
    return [`${model}${hostCpuTag(k.host?.cpu_id)}`, ...rest].join(', ');
  };
}

/** A CPU model as the page names it: "Intel(R) Xeon(R) Processor" → "Intel Xeon" (the answers and picks alike). */
export const cpuShortName = (model: string) => model.replace(/\((R|TM)\)/g, '').replace(/ Processor\b/, '');

/**
 * How the words name each of these machines (machineKeys): its CPU model ("AMD EPYC"), with the rest of its key where
 * two of them share that model ("AMD EPYC (4 logical CPUs)"), so that no name the page gives stands for two machines.
 */
export function machineNames(keys: string[]): (key: string) => string {
  const short = (k: string) => cpuShortName(k.split(', ')[0]!);
  const seen = new Map<string, number>();
  for (const k of new Set(keys)) seen.set(short(k), (seen.get(short(k)) ?? 0) + 1);
  return (k) => {
    const rest = k.split(', ').slice(1).join(', ');
    return (seen.get(short(k)) ?? 0) > 1 && rest ? `${short(k)} (${rest})` : short(k);
  };
}

/** The run's CPU placement (--placement): "none" where Redis and oha share the app's CPUs. */
export const placementOf = (k: Pick<KeptAnswers, 'host'>) => k.host?.placement ?? 'none';

/**
 * Noisy whatever the reference: an sd between windows at or above this (docs/glossary.md: 15–25% is noisy). A kept
 * run this noisy was measured on a contended machine (conditionOf).
 */
export const NOISY_SD = 0.15;

/**
 * The condition a run was measured in, from its own sd between windows: "contended" at NOISY_SD or above, else "quiet"
 * (null: not recorded). Two quiet boots of a machine can agree as closely as two runs of one boot, where a quiet and
 * a contended boot do not (scripts/pool-boots.ts part 1), so the pool counts a machine's contended boots.
 */
export const conditionOf = (k: Pick<KeptAnswers, 'sd_windows'>): 'quiet' | 'contended' | null =>
  k.sd_windows === null || !Number.isFinite(k.sd_windows) ? null : k.sd_windows >= NOISY_SD ? 'contended' : 'quiet';

/** The machine and kernel build of a run: what a boot of a record kept before runs recorded their boot's id shares. */
const buildOf = (k: KeptAnswers) => `${machineKey(k)} ${k.host?.kernel ?? k.machine.split(', ').at(-1)}`;

/**
 * How long after a run of its machine and kernel build a run without a boot id is still read as that run's boot. VMs
 * here ran one boot over 8 h and over 19 h (their recorded ids), across midnight, so a day is not a boot.
 */
export const SAME_BOOT_MS = 24 * 3600_000;

/**
 * Which boot each run was measured in, by its start: its boot's id where it recorded one (a fresh CI runner is a boot
 * of its own, whatever its kernel and day). A run without one is read as the boot of the run before it on its machine
 * and kernel build if that started less than SAME_BOOT_MS before, and a boot whose runs recorded no id takes the id of
 * a run that follows it so closely; else it is a boot of its own (named by its machine, kernel build and first start).
 * Runs of one boot are one draw of the run effect: two runs that could have shared a boot are read as sharing it.
 */
export function bootsOf(records: KeptAnswers[]): Map<string, string> {
  type Chain = { id: string | undefined; first: string; lastAt: number };
  const chainOf = new Map<string, Chain>();
  const last = new Map<string, Chain>();
  for (const k of [...records].sort((a, b) => a.started_at.localeCompare(b.started_at))) {
    const at = Date.parse(k.started_at);
    const id = k.host?.boot_id;
    const before = last.get(buildOf(k));
    const near = before !== undefined && at - before.lastAt < SAME_BOOT_MS;
    let chain: Chain;
    if (near && (before.id === undefined || id === undefined || before.id === id)) {
      chain = before;
      chain.id ??= id;
    } else chain = { id, first: k.started_at, lastAt: at };
    chain.lastAt = at;
    chainOf.set(k.started_at, chain);
    last.set(buildOf(k), chain);
  }
  // A recorded id names its boot wherever its runs fall; a boot of no recorded id, its machine and first run.
  return new Map(
    records.map((k) => {
      const c = chainOf.get(k.started_at)!;
      return [k.started_at, k.host?.boot_id ?? c.id ?? `${buildOf(k)} ${c.first}`];
    }),
  );
}

/** What machines (machineKey) share, of their CPU model and count, and which of the key's parts differ among them. */
export function machineDifference(keys: string[]): { shared: string[]; differ: string[] } {
  const parts = keys.map((k) => k.split(', '));
  const names = ['CPU models', 'CPU counts', 'architectures'];
  const same = (i: number) => parts.every((q) => (q[i] ?? 'x64') === (parts[0]?.[i] ?? 'x64'));
  return {
    shared: (parts[0] ?? []).filter((_, i) => i < 2 && same(i)),
    differ: names.filter((_, i) => !same(i)),
  };
}

/** What another run said of an answer decided here (answers/held.ts). */
export type Held = 'same' | 'equal' | 'open' | 'reversed' | 'not asked';
export const HELD: Held[] = ['same', 'equal', 'open', 'reversed', 'not asked'];

const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** "AMD EPYC, 2 logical CPUs": the kind of machine a kept run's `machine` names, without its kernel. */
export const machineKind = (machine: string) => machine.split(',').slice(0, 2).join(',').trim();

/** The kept file's name: the date, the machine and the commit. */
export const keptName = (k: KeptAnswers) =>
  `${k.started_at.slice(0, 10)}-${slug(machineKind(k.machine))}-${k.commit.slice(0, 7)}.json`;

/** Why a run is not kept, or null: a complete run of a suite, not a part of one or a change. */
export function notKept(r: Results): string | null {
  const s = r.settings;
  if (!r.complete) return 'it is not complete';
  if (s.apps) return 'it measured your own app (--app)';
  if (s.only || s.against || s.handicap)
    return 'it measured a part of the suite or a change (--only, --where, --against or --handicap)';
  // Its answers are of another question (writes with Redis far away), not to be held up against those at none.
  if ((s.redis_rtt_ms ?? 0) > 0) return 'it ran with Redis at a network distance (--redis-rtt)';
  return null;
}
