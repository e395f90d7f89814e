// --workload live: per contender, what its cache buys and what it costs in freshness. req/s and
// CPU per request as everywhere; Redis reads per response (below 1 with a cache; Redis counts
// per command, so the block's idle apps add theirs: followers on each write, csc re-reads);
// staleness of the prober's reads from the checker; reads over the contender's bound, which
// must be 0 for an exact cache; and the writer's own cost in Redis.
import { median } from 'simple-statistics';
import type * as vl from 'vega-lite';
import type { Analysis } from '../answers/analysis';
import type { ContenderResult, LiveRecord, Results, RunRecord } from '../model/results';
import { PROBE_RATE } from '../live/session';

const fmt = (x: number | undefined | null, digits = 0) =>
  x === undefined || x === null || !Number.isFinite(x) ? '–' : x.toFixed(digits);

/** A contender's kept runs (the analysis's). */
const keptOf = (an: Analysis, c: ContenderResult): RunRecord[] => an.kept.get(c.name) ?? [];

/** Every kept window's live record of a contender, in time order. */
const windowsOf = (an: Analysis, c: ContenderResult): LiveRecord[] =>
  keptOf(an, c).flatMap((run) => (run.windows ?? []).map((w) => w.live).filter((l): l is LiveRecord => !!l));

function row(an: Analysis, c: ContenderResult): string {
  const ws = windowsOf(an, c);
  const cache = c.settings?.cache ?? 'none';
  if (c.status !== 'ok' || !ws.length)
    return `| ${c.name} | ${cache} | ${c.status} | – | – | – | – | – | ${c.reason ?? ''} |`;
  const ages = ws.flatMap((w) => (w.staleness_ms ? [w.staleness_ms] : []));
  const stale = ages.length
    ? `${fmt(median(ages.map((a) => a.p50)), 1)} / ${fmt(Math.max(...ages.map((a) => a.p99)), 1)} / ` +
      fmt(Math.max(...ages.map((a) => a.max)), 1)
    : '–';
  const probes = ws.reduce((n, w) => n + w.count, 0);
  const over = ws.reduce((n, w) => n + w.over_bound, 0);
  return (
    `| ${c.name} | ${cache} | ${fmt(c.rps?.median)} | ${fmt(c.cpu_us_per_req)} | ${fmt(c.redis_calls_per_req, 3)} | ` +
    `${stale} | ${over} of ${probes} (bound ${ws[0]!.bound_ms} ms) | ${ws.length} | |`
  );
}

/** The writer's rate as achieved, and the Redis time its XADDs took, over every window of the run. */
function writerLine(an: Analysis): string {
  const r = an.results;
  const ws = r.contenders.flatMap((c) => windowsOf(an, c));
  const seconds = r.contenders
    .flatMap((c) => keptOf(an, c).flatMap((run) => run.windows ?? []))
    .filter((w) => w.live)
    .reduce((s, w) => s + (w.ended_at - w.started_at) / 1000, 0);
  const perSecond = (x: number) => fmt(x / Math.max(seconds, 1e-9), 1);
  const writes = ws.reduce((n, w) => n + w.writes, 0);
  const us = ws.reduce((n, w) => n + w.write_redis_us, 0);
  // Runs from before the writer's CPU was recorded have none.
  const cpu = ws.every((w) => w.writer_cpu_s !== undefined) ? ws.reduce((n, w) => n + w.writer_cpu_s!, 0) : NaN;
  const cpuPart = Number.isNaN(cpu) ? '' : `; the writer process itself used ${perSecond(100 * cpu)}% of a CPU`;
  const follows = ws.every((w) => w.follower_reads !== undefined) ? ws.reduce((n, w) => n + w.follower_reads!, 0) : NaN;
  const followPart = Number.isNaN(follows)
    ? ''
    : " The tail followers running (the measured app's and its block's idle apps') " +
      `made ${perSecond(follows)} reads/s (XREAD, XREVRANGE): ` +
      "what the writes cost in reads, counted apart from the requests' XRANGEs, " +
      'which are the Redis reads per response above.';
  return (
    `The writer asked for ${r.settings.live!.write_rate} XADDs/s (MAXLEN at the stream's length) ` +
    `and made ${perSecond(writes)}/s during the measured windows, ` +
    `${fmt(writes ? us / writes : NaN, 1)} µs of Redis time each (apart from the apps' reads)${cpuPart}. ` +
    "Staleness: how much older the snapshot a probe got was than the probe's send time, " +
    `from ${PROBE_RATE} probes/s per window (live/session.ts); ` +
    `p50 is the windows' median, p99 and max their largest.${followPart}`
  );
}

export function liveTable(an: Analysis): string {
  const r = an.results;
  if (!r.settings.live) return '';
  const rows = r.contenders
    .filter((c) => !c.self_check_of)
    .sort((a, b) => (b.rps?.median ?? 0) - (a.rps?.median ?? 0))
    .map((c) => row(an, c));
  const head =
    '| contender | cache | req/s | CPU µs/req | Redis reads/resp | staleness p50 / p99 / max (ms) | ' +
    'reads over bound | windows | notes |\n|---|---|---:|---:|---:|---|---|---:|---|';
  return (
    `**Live stream: ${r.settings.live.write_rate} writes/s, reads checked for freshness**\n\n` +
    `${[head, ...rows].join('\n')}\n\n${writerLine(an)}${restartLine(r)}`
  );
}

/** --restart-redis: how long Redis was down each time, and how soon each app served a fresh snapshot again. */
function restartLine(r: Results): string {
  const restarts = r.data.redis_restarts ?? [];
  if (!r.settings.live?.restart_redis) return '';
  if (!restarts.length)
    return (
      '\n\nRedis restarts asked (--restart-redis), but none happened ' +
      '(no block of round 1 reached its second window).'
    );
  const apps = restarts.flatMap((x) => Object.entries(x.recovered_ms));
  const back = apps.filter(([, ms]) => ms !== null).map(([, ms]) => ms!);
  const lost = apps.filter(([, ms]) => ms === null).map(([name]) => name);
  const times = `time${restarts.length > 1 ? 's' : ''}`;
  const within = back.length ? `within ${fmt(Math.min(...back))}–${fmt(Math.max(...back))} ms` : '';
  return (
    `\n\nRedis restarted ${restarts.length} ${times} (SHUTDOWN SAVE, then again from its RDB; ` +
    `down ${restarts.map((x) => x.down_ms).join(', ')} ms), ` +
    'between the first and second windows of each block in round 1, with the writer paused. ' +
    `${back.length} of ${apps.length} apps served a fresh snapshot again ` +
    `${within}${lost.length ? `; not within 10 s: ${lost.join(', ')}` : ''}. ` +
    'Their later windows are judged like the others.'
  );
}

/** The workload command's calls per minute over one window: a cache's reads, or one per request without one. */
const callsPerMinute = (w: { redis_calls?: number; started_at: number; ended_at: number }) =>
  w.redis_calls === undefined || w.ended_at <= w.started_at
    ? null
    : (w.redis_calls * 60_000) / (w.ended_at - w.started_at);

/**
 * Throughput, staleness and Redis reads per minute through the run, one point per measured window (a window is
 * --duration long): where a cache stops keeping up shows as a rise.
 */
export function liveTimeSpec(an: Analysis, config: object): vl.TopLevelSpec | null {
  const r = an.results;
  if (!r.settings.live) return null;
  const t0 = Date.parse(r.started_at);
  const values = r.contenders.flatMap((c) =>
    keptOf(an, c).flatMap((run) =>
      (run.windows ?? []).flatMap((w) =>
        w.live
          ? [
              {
                name: c.name,
                t: (w.started_at - t0) / 1000,
                rps: w.rps,
                p99: w.live.staleness_ms?.p99 ?? null,
                calls: callsPerMinute(w),
              },
            ]
          : [],
      ),
    ),
  );
  if (!values.length) return null;
  const x = { field: 't', type: 'quantitative' as const, title: 'seconds into the run' };
  const color = {
    field: 'name',
    type: 'nominal' as const,
    title: null,
    scale: { scheme: 'tableau20' },
    legend: { labelLimit: 320 },
  };
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    config,
    data: { values },
    title:
      `Live stream, ${r.settings.live.write_rate} writes/s: each window's req/s, ` +
      "its probes' staleness p99 and the Redis reads it made per minute",
    vconcat: [
      {
        width: 720,
        height: 220,
        mark: { type: 'point', filled: true, size: 18 },
        encoding: { x, y: { field: 'rps', type: 'quantitative', title: 'req/s (log)', scale: { type: 'log' } }, color },
      },
      {
        width: 720,
        height: 160,
        mark: { type: 'point', filled: true, size: 18 },
        encoding: { x, y: { field: 'p99', type: 'quantitative', title: 'staleness p99 (ms)' }, color },
      },
      {
        width: 720,
        height: 160,
        mark: { type: 'point', filled: true, size: 18 },
        encoding: { x, y: { field: 'calls', type: 'quantitative', title: 'Redis reads per minute' }, color },
      },
    ],
  } as vl.TopLevelSpec;
}
