// --workload live's figures over each contender's kept runs, for its table and chart (report.ts): the staleness of
// the probes' reads, the reads over a cache's bound and what the writer cost.
import { median } from 'simple-statistics';
import type { Results, RunRecord } from '../../model/results';
import { liveOf } from './record';

import { keptOf, sum } from '../types';

type Kept = Map<string, RunRecord[]>;

/** One contender's kept live windows, summed. */
export interface LiveRow {
  windows: number;
  /** Staleness (ms): the windows' median p50, and their largest p99 and max (null: none recorded). */
  stale: { p50: number; p99: number; max: number } | null;
  probes: number;
  overBound: number;
  /** The bound its reads were held to (ms), as its first window recorded it. */
  boundMs: number | undefined;
}

/** One kept live window on the run's time axis. */
export interface LivePoint {
  name: string;
  /** Seconds into the run. */
  t: number;
  rps: number;
  p99: number | null;
  /** The workload command's calls per minute (null: not recorded). */
  calls: number | null;
}

export interface LiveFigures {
  /** By contender name. */
  rows: Map<string, LiveRow>;
  /**
   * Over every kept live window of the run: its seconds, the writer's XADDs and their Redis µs, the
   * writer's CPU seconds and the tail followers' reads (NaN: not recorded in every window).
   */
  writer: { seconds: number; writes: number; writeRedisUs: number; cpuS: number; followerReads: number };
  points: LivePoint[];
}

/** The workload command's calls per minute over one window: a cache's reads, or one per request without one. */
const callsPerMinute = (w: { redis_calls?: number; started_at: number; ended_at: number }) =>
  w.redis_calls === undefined || w.ended_at <= w.started_at
    ? null
    : (w.redis_calls * 60_000) / (w.ended_at - w.started_at);

function liveRow(runs: RunRecord[]): LiveRow {
  const ws = runs.flatMap((run) => (run.windows ?? []).flatMap((w) => liveOf(w) ?? []));
  const ages = ws.flatMap((w) => (w.staleness_ms ? [w.staleness_ms] : []));
  return {
    windows: ws.length,
    stale: ages.length
      ? {
          p50: median(ages.map((a) => a.p50)),
          p99: Math.max(...ages.map((a) => a.p99)),
          max: Math.max(...ages.map((a) => a.max)),
        }
      : null,
    probes: sum(ws.map((w) => w.count)),
    overBound: sum(ws.map((w) => w.over_bound)),
    boundMs: ws[0]?.bound_ms,
  };
}

/** --workload live: each contender's row, the writer's cost and every window's point, over the kept runs. */
export function liveFigures(r: Results, kept: Kept): LiveFigures {
  const windows = r.contenders.flatMap((c) =>
    keptOf(kept, c).flatMap((run) =>
      (run.windows ?? []).flatMap((w) => {
        const live = liveOf(w);
        return live ? [{ c, w, live }] : [];
      }),
    ),
  );
  const ws = windows.map((x) => x.live);
  // Runs from before the writer's CPU and the followers' reads were recorded have none.
  const all = (f: (w: (typeof ws)[number]) => number | undefined) =>
    ws.every((w) => f(w) !== undefined) ? sum(ws.map((w) => f(w)!)) : NaN;
  const t0 = Date.parse(r.started_at);
  return {
    rows: new Map(r.contenders.map((c) => [c.name, liveRow(keptOf(kept, c))])),
    writer: {
      seconds: sum(windows.map(({ w }) => (w.ended_at - w.started_at) / 1000)),
      writes: sum(ws.map((w) => w.writes)),
      writeRedisUs: sum(ws.map((w) => w.write_redis_us)),
      cpuS: all((w) => w.writer_cpu_s),
      followerReads: all((w) => w.follower_reads),
    },
    points: windows.map(({ c, w, live }) => ({
      name: c.name,
      t: (w.started_at - t0) / 1000,
      rps: w.rps,
      p99: live.staleness_ms?.p99 ?? null,
      calls: callsPerMinute(w),
    })),
  };
}
