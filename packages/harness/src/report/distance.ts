// --redis-rtt 0,1ms,5ms: one complete run per distance, with a delay proxy between every app and
// Redis; the table and chart of the sweep's summary (answers/sweeps.ts: each run's own ranks, and
// the contenders whose rank intervals at two distances do not overlap).
import type * as vl from 'vega-lite';
import type { DistancePoint, DistanceSweep } from '../answers/sweeps';
import { rttLabel } from '../model/servers';
import { rttReached } from '../topology/servers';
import { contenderLines } from './lines';

/** "3", "2–5", or "–" without a rank. */
function rankText(lo: number | null, hi: number | null): string {
  if (lo === null) return '–';
  return lo === hi ? `${lo}` : `${lo}–${hi}`;
}
export function distanceTable({ points, changes, apart = [] }: DistanceSweep): string {
  const rtts = [...new Set(points.map((p) => p.rtt_ms))].sort((a, b) => a - b);
  const names = [...new Set(points.map((p) => p.name))];
  const at = (n: string, rtt: number) => points.find((p) => p.name === n && p.rtt_ms === rtt);
  const cell = (p: DistancePoint | undefined) =>
    !p ? '–' : p.rps === null ? p.status : `${p.rps.toFixed(0)} (rank ${rankText(p.rank_lo, p.rank_hi)})`;
  const measured = rtts.map((rtt) => {
    const p = points.find((x) => x.rtt_ms === rtt);
    const cpu = points.filter((x) => x.rtt_ms === rtt && x.proxy_cpu_pct !== null).map((x) => x.proxy_cpu_pct!);
    const missed = p?.measured_rtt_ms != null && rtt > 0 && !rttReached(rtt, p.measured_rtt_ms);
    const through =
      p?.measured_rtt_ms != null
        ? `${p.measured_rtt_ms.toFixed(2)} ms measured through the proxy (redis-cli --latency)` +
          (missed ? `, **not the ${rttLabel(rtt)} asked: the figures are at that distance**` : '')
        : 'no proxy';
    const proxyCpu = cpu.length
      ? `, proxy CPU ${Math.min(...cpu).toFixed(1)}–${Math.max(...cpu).toFixed(1)}% of a core ` +
        'while the contenders were measured'
      : '';
    return `RTT ${rttLabel(rtt)}: ${through}${proxyCpu}`;
  });
  const columns = rtts.map((r) => `RTT ${rttLabel(r)}`);
  const head = `| contender | ${columns.join(' | ')} |\n|---|${rtts.map(() => '---:').join('|')}|`;
  const rows = names.map((n) => `| ${n} | ${rtts.map((rtt) => cell(at(n, rtt))).join(' | ')} |`);
  const changed = changes.length
    ? changes
        .map(
          (c) =>
            `- ${c.name}: rank ${rankText(...c.near)} at RTT ${rttLabel(rtts[0]!)}, ` +
            `${rankText(...c.far)} at ${rttLabel(c.rtt_ms)}`,
        )
        .join('\n')
    : `- none: every contender's rank interval overlaps the one it has at RTT ${rttLabel(rtts[0]!)}`;
  const notCompared = apart.length
    ? `\n- not compared at RTT ${apart.map(rttLabel).join(', ')}: that run ranked other contenders than the one at ` +
      `RTT ${rttLabel(rtts[0]!)} (one not valid in both), so its ranks are on another scale`
    : '';
  return (
    "**req/s and rank at each Redis distance** (median of each run's launches; " +
    "rank: the interval from that run's own paired tests, Holm at 5%)\n\n" +
    `${measured.map((m) => `- ${m}`).join('\n')}\n\n${head}\n${rows.join('\n')}\n\n` +
    `**Contenders that change rank** (rank intervals that do not overlap)\n\n${changed}${notCompared}`
  );
}

export function distanceSpec(points: DistancePoint[]): vl.TopLevelSpec {
  return contenderLines({
    title: 'req/s against the RTT between app and Redis, one line per contender',
    values: points.filter((p) => p.rps !== null).map((p) => ({ ...p, rtt: rttLabel(p.rtt_ms) })),
    x: { field: 'rtt', title: 'RTT to Redis', sort: { field: 'rtt_ms' } },
    y: { field: 'rps', title: 'req/s (log)', log: true },
  });
}
