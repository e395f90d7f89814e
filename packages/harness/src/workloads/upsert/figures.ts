// --workload upsert's figures over each contender's kept runs, for its table and chart (report.ts): the accounting of
// every write, the server's commands per request and each strategy's req/s through the run.
import { perRequestCommand } from '@bench/stream';
import { median } from 'simple-statistics';
import type { Results, RunRecord } from '../../model/results';
import { BRANCHES, type Branch, upsertOf } from './record';
import { keptOf, sum } from '../types';
import { answered, poolUpsert } from './measure';

type Kept = Map<string, RunRecord[]>;

/** The branches a row says: every one but errors, which its accounting cell says (with the unanswered). */
const SAID = BRANCHES.filter((b): b is Exclude<Branch, 'error'> => b !== 'error');

export interface UpsertRow {
  runs: number;
  branches: Record<(typeof SAID)[number], number>;
  lost: number;
  invented: number;
  stale: number;
  applied: number;
  /** Errors and requests with no answer (oha's and the prober's): none acknowledged, each may have written. */
  unanswered: number;
  commands: Record<string, number>;
  /** Requests answered (every branch but an error). */
  answered: number;
  /** Redis CPU µs per answered request (NaN: not measured in every run). */
  redisCpuUs: number;
  /** The server's calls per answered request of each command its strategy sends (WATCH: the ones it sent). */
  calls: [command: string, perRequest: number][];
  /** WATCH's retries per request (WATCHes per request − 1); null for the other strategies. */
  retries: number | null;
}

/** What one write strategy costs per request, over the stacks that measured it (the cost line under the table). */
export interface StrategyCost {
  write: string;
  /** Redis commands per answered request: the least and most over its stacks. */
  commands: [lo: number, hi: number];
  /** The app's CPU per request, the median over its stacks (null: not measured). */
  cpuUs: number | null;
}

/** One kept upsert window on the run's time axis: its strategy, contender, whole seconds into the run and req/s. */
export interface UpsertPoint {
  write: string;
  name: string;
  t: number;
  rps: number;
}

export interface UpsertFigures {
  rows: Map<string, UpsertRow>;
  points: UpsertPoint[];
  /** Each minute of the run with a window (0-based) and each strategy: the median req/s of its windows in it. */
  perMinute: { writes: string[]; minutes: number[]; median: (number | null)[][]; stacks: number[] };
  /** The accounting over every contender's kept windows: writes applied, and any lost, invented or stale. */
  accounting: { windows: number; applied: number; lost: number; invented: number; stale: number };
  costs: StrategyCost[];
}

const WATCH_PATH = ['watch', 'hget', 'multi', 'hset', 'hincrby', 'exec', 'unwatch'];

/** The Redis commands a strategy sends per request: its one (EVALSHA, FCALL, PING), or WATCH's whole path. */
const commandsOf = (write: string) => (write === 'watch' ? WATCH_PATH : [perRequestCommand('upsert', write)]);

/** A strategy's Redis commands per answered request: its one command, or every command of the WATCH path. */
const commandsPerRequest = (t: UpsertRow, write: string) =>
  commandsOf(write).reduce((n, k) => n + (t.commands[k] ?? 0), 0) / Math.max(1, t.answered);

/** Per strategy, over the contenders that measured it: Redis commands per request and the app's CPU (median). */
function strategyCosts(r: Results, rows: Map<string, UpsertRow>): StrategyCost[] {
  const by = new Map<string, { commands: number[]; cpu: number[] }>();
  for (const c of r.contenders) {
    const t = rows.get(c.name);
    if (c.status !== 'ok' || !t?.runs) continue;
    const write = c.settings?.write ?? 'lua';
    const e = by.get(write) ?? by.set(write, { commands: [], cpu: [] }).get(write)!;
    e.commands.push(commandsPerRequest(t, write));
    if (Number.isFinite(c.cpu_us_per_req)) e.cpu.push(c.cpu_us_per_req!);
  }
  return [...by].map(([write, e]) => ({
    write,
    commands: [Math.min(...e.commands), Math.max(...e.commands)],
    cpuUs: e.cpu.length ? median(e.cpu) : null,
  }));
}

/** The contender's kept runs' upsert records summed (poolUpsert), the server's commands with them. */
function upsertRow(all: RunRecord[], write: string): UpsertRow {
  const runs = all.filter((r) => upsertOf(r));
  const u = runs.length ? poolUpsert(runs.map((r) => upsertOf(r)!)) : null;
  const commands = u?.redis_commands ?? {};
  const b = (k: keyof UpsertRow['branches']) => u?.branches[k] ?? 0;
  const served = u ? answered(u) : 0;
  const redisCpu = runs.every((r) => r.redis_cpu_s !== null) ? runs.reduce((n, r) => n + r.redis_cpu_s!, 0) : NaN;
  return {
    runs: runs.length,
    branches: Object.fromEntries(SAID.map((k) => [k, b(k)])) as UpsertRow['branches'],
    lost: u?.lost ?? 0,
    invented: u?.invented ?? 0,
    stale: u?.stale ?? 0,
    applied: u?.applied ?? 0,
    unanswered: u?.unanswered ?? 0,
    commands,
    answered: served,
    redisCpuUs: (redisCpu * 1e6) / Math.max(1, served),
    calls: commandsOf(write)
      .filter((k) => write !== 'watch' || commands[k])
      .map((k) => [k, (commands[k] ?? 0) / Math.max(1, served)]),
    retries: write === 'watch' ? (commands.watch ?? 0) / Math.max(1, served) - 1 : null,
  };
}

/** The original's per-minute table at our window scale: each minute, each strategy's median req/s. */
function perMinute(points: UpsertPoint[]): UpsertFigures['perMinute'] {
  const writes = [...new Set(points.map((v) => v.write))].sort();
  const minutes = [...new Set(points.map((v) => Math.floor(v.t / 60)))].sort((a, b) => a - b);
  const cell = (m: number, w: string) => {
    const xs = points.filter((v) => v.write === w && Math.floor(v.t / 60) === m).map((v) => v.rps);
    return xs.length ? median(xs) : null;
  };
  // How many stacks each strategy's medians are over: the strategies run on different stacks.
  const stacks = writes.map((w) => new Set(points.filter((v) => v.write === w).map((v) => v.name)).size);
  return { writes, minutes, median: minutes.map((m) => writes.map((w) => cell(m, w))), stacks };
}

/** --workload upsert: each contender's row, every window's point and the req/s per minute, over the kept runs. */
export function upsertFigures(r: Results, kept: Kept): UpsertFigures {
  const t0 = Date.parse(r.started_at);
  const points = r.contenders.flatMap((c) =>
    keptOf(kept, c).flatMap((run) =>
      (run.windows ?? []).flatMap((w) =>
        upsertOf(w)
          ? [{ write: c.settings?.write ?? 'lua', name: c.name, t: Math.round((w.started_at - t0) / 1000), rps: w.rps }]
          : [],
      ),
    ),
  );
  const rows = new Map(r.contenders.map((c) => [c.name, upsertRow(keptOf(kept, c), c.settings?.write ?? 'lua')]));
  const total = (f: (row: UpsertRow) => number) => sum([...rows.values()].map(f));
  return {
    rows,
    points,
    perMinute: perMinute(points),
    accounting: {
      windows: points.length,
      applied: total((x) => x.applied),
      lost: total((x) => x.lost),
      invented: total((x) => x.invented),
      stale: total((x) => x.stale),
    },
    costs: strategyCosts(r, rows),
  };
}
