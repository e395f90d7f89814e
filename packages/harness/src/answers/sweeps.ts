// A sweep's summary, one complete run per value (cli/bench.ts): --redis-rtt 0,1ms,5ms, each contender's req/s and
// rank at each distance and who changes rank; report/distance.ts renders it. A workload's own sweeps declare theirs
// (measure/workload.ts SweepSummary).
import type { Results } from '../model/results';
import { ranked } from './ranking';

export interface DistancePoint {
  /** The RTT asked for, and the one redis-cli --latency measured through the proxy (null at 0: no proxy). */
  rtt_ms: number;
  measured_rtt_ms: number | null;
  name: string;
  status: string;
  rps: number | null;
  rank_lo: number | null;
  rank_hi: number | null;
  /** The proxy's CPU over the measured windows, as % of one core (null at 0). */
  proxy_cpu_pct: number | null;
}

/** A contender whose rank interval at a distance shares no rank with its interval at the nearest one. */
export interface RankChange {
  name: string;
  rtt_ms: number;
  near: [number, number];
  far: [number, number];
}

/** Every contender at every distance, and the rank changes among them. */
export interface DistanceSweep {
  points: DistancePoint[];
  changes: RankChange[];
  /** The distances whose run ranked other contenders than the nearest one's: their ranks are not compared. */
  apart?: number[];
}

function proxyCpuPct(runs: { proxy_cpu_s?: number; seconds: number }[]): number | null {
  const cpu = runs.reduce((s, r) => s + (r.proxy_cpu_s ?? NaN), 0);
  const seconds = runs.reduce((s, r) => s + r.seconds, 0);
  return Number.isFinite(cpu) && seconds > 0 ? (100 * cpu) / seconds : null;
}

/**
 * Each run ranks its own contenders (rank intervals from its own paired tests), so a rank compares
 * contenders measured together.
 */
export function distancePoints(runs: { rttMs: number; results: Results }[]): DistancePoint[] {
  return runs.flatMap(({ rttMs, results }) => {
    const ranks = new Map(ranked(results).map((c) => [c.name, c]));
    const proxy = results.data.redis_rtt ?? null;
    return results.contenders
      .filter((c) => !c.self_check_of && !c.ceiling)
      .map((c) => {
        const rank = ranks.get(c.name);
        return {
          rtt_ms: rttMs,
          measured_rtt_ms: proxy?.measured?.typical_ms ?? null,
          name: c.name,
          status: c.status,
          rps: c.status === 'ok' ? (c.rps?.median ?? null) : null,
          rank_lo: rank?.rankLo ?? null,
          rank_hi: rank?.rankHi ?? null,
          proxy_cpu_pct: proxyCpuPct(c.runs),
        };
      });
  });
}

/** The contenders a distance's run ranked, in one string: two runs' ranks compare only where these are equal. */
const rankedAt = (points: DistancePoint[], rtt: number) =>
  points
    .filter((x) => x.rtt_ms === rtt && x.rank_lo !== null)
    .map((x) => x.name)
    .sort()
    .join('\n');

/** The distances whose run ranked other contenders than the nearest one's (one failed at a distance, say). */
export function rankedApart(points: DistancePoint[]): number[] {
  const nearest = Math.min(...points.map((p) => p.rtt_ms));
  const rtts = [...new Set(points.map((p) => p.rtt_ms))].filter((r) => r !== nearest);
  return rtts.filter((r) => rankedAt(points, r) !== rankedAt(points, nearest));
}

/**
 * Across distances, a contender "changes rank" only when its rank intervals at the two distances do
 * not overlap: each distance against the nearest (first) one, where both runs ranked the same contenders (a rank
 * among other contenders is another scale: one failing at a distance moves every one below it).
 */
export function rankChanges(points: DistancePoint[]): RankChange[] {
  const nearest = Math.min(...points.map((p) => p.rtt_ms));
  const apart = rankedApart(points);
  const out = [];
  for (const p of points.filter((x) => x.rtt_ms !== nearest && x.rank_lo !== null && !apart.includes(x.rtt_ms))) {
    const base = points.find((x) => x.rtt_ms === nearest && x.name === p.name && x.rank_lo !== null);
    if (base && (p.rank_lo! > base.rank_hi! || p.rank_hi! < base.rank_lo!)) {
      out.push({
        name: p.name,
        rtt_ms: p.rtt_ms,
        near: [base.rank_lo!, base.rank_hi!] as [number, number],
        far: [p.rank_lo!, p.rank_hi!] as [number, number],
      });
    }
  }
  return out;
}

export function distanceSweep(runs: { rttMs: number; results: Results }[]): DistanceSweep {
  const points = distancePoints(runs);
  const apart = rankedApart(points);
  return { points, changes: rankChanges(points), ...(apart.length ? { apart } : {}) };
}
