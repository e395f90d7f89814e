// --workload live: per contender, what its cache buys and what it costs in freshness. req/s and
// CPU per request as everywhere; XRANGEs per response (below 1 with a cache; Redis counts
// per command, so the block's idle apps add theirs: followers on each write, csc re-reads);
// staleness of the prober's reads from the checker; reads over the contender's bound, which
// must be 0 for an exact cache; and the writer's own cost in Redis.
import type * as vl from 'vega-lite';
import type { Analysis } from '../../answers/analysis';
import type { ContenderResult, Results } from '../../model/results';
import { fastestFirst } from '../../model/run-record';
import { PROBE_RATE } from './session';
import { chartHead, once } from '../types';
import { type LiveFigures, type LiveRow, liveFigures } from './figures';
import { liveSettings } from './record';

/** The run's live figures over its kept runs (null under another workload), computed once per analysis. */
export const figuresOf = once((an: Analysis) =>
  liveSettings(an.results.settings) ? liveFigures(an.results, an.kept) : null,
);

const fmt = (x: number | undefined | null, digits = 0) =>
  x === undefined || x === null || !Number.isFinite(x) ? '–' : x.toFixed(digits);

function row(c: ContenderResult, f: LiveRow | undefined): string {
  const cache = c.settings?.cache ?? 'none';
  if (c.status !== 'ok' || !f?.windows)
    return `| ${c.name} | ${cache} | ${c.status} | – | – | – | – | – | ${c.reason ?? ''} |`;
  const stale = f.stale ? `${fmt(f.stale.p50, 1)} / ${fmt(f.stale.p99, 1)} / ${fmt(f.stale.max, 1)}` : '–';
  return (
    `| ${c.name} | ${cache} | ${fmt(c.rps?.median)} | ${fmt(c.cpu_us_per_req)} | ${fmt(c.redis_calls_per_req, 3)} | ` +
    `${stale} | ${f.overBound} of ${f.probes} (bound ${f.boundMs} ms) | ${f.windows} | |`
  );
}

/** The writer's rate as achieved, and the Redis time its XADDs took, over every window of the run. */
function writerLine(r: Results, { writer: w }: LiveFigures): string {
  // No window kept (every contender out): no rate to give, not a rate of 0.
  if (!(w.seconds > 0))
    return (
      `The writer asked for ${liveSettings(r.settings)!.write_rate} XADDs/s (MAXLEN at the stream's length); no ` +
      'window was kept, so what it made, and the Redis time it took, are not given.'
    );
  const perSecond = (x: number) => fmt(x / w.seconds, 1);
  const cpuPart = Number.isNaN(w.cpuS) ? '' : `; the writer process itself used ${perSecond(100 * w.cpuS)}% of a CPU`;
  const followPart = Number.isNaN(w.followerReads)
    ? ''
    : " The tail followers running (the measured app's and its block's idle apps') " +
      `made ${perSecond(w.followerReads)} reads/s (XREAD, XREVRANGE): ` +
      "what the writes cost in reads, counted apart from the requests' XRANGEs, " +
      'which are the XRANGEs per response above.';
  return (
    `The writer asked for ${liveSettings(r.settings)!.write_rate} XADDs/s (MAXLEN at the stream's length) ` +
    `and made ${perSecond(w.writes)}/s during the measured windows, ` +
    `${fmt(w.writes ? w.writeRedisUs / w.writes : NaN, 1)} µs of Redis time each ` +
    `(apart from the apps' reads)${cpuPart}. ` +
    "Staleness: how much older the snapshot a probe got was than the probe's send time, " +
    `from ${PROBE_RATE} probes/s per window, sent at random times (workloads/live/session.ts); ` +
    `p50 is the windows' median, p99 and max their largest.${followPart}`
  );
}

export function liveTable(an: Analysis): string {
  const r = an.results;
  const f = figuresOf(an);
  if (!liveSettings(r.settings) || !f) return '';
  const rows = fastestFirst(r.contenders).map((c) => row(c, f.rows.get(c.name)));
  const head =
    '| contender | cache | req/s | CPU µs/req | XRANGE/resp | staleness p50 / p99 / max (ms) | ' +
    'reads over bound | windows | notes |\n|---|---|---:|---:|---:|---|---|---:|---|';
  return (
    `**Live stream: ${liveSettings(r.settings)!.write_rate} writes/s, reads checked for freshness**\n\n` +
    `${[head, ...rows].join('\n')}\n\n${writerLine(r, f)}${restartLine(r)}`
  );
}

/** --restart-redis: how long Redis was down each time, and how soon each app served a fresh snapshot again. */
function restartLine(r: Results): string {
  const restarts = r.data.redis_restarts ?? [];
  if (!liveSettings(r.settings)?.restart_redis) return '';
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
    `${within}${lost.length ? `; not within 10 s: ${lost.join(', ')}` : ''}, timed from Redis answering again and ` +
    "asked once the harness's writer had started again (which takes a few hundred ms of it). " +
    'Their later windows are judged like the others.'
  );
}

/**
 * Throughput, staleness and Redis reads per minute through the run, one point per measured window (a window is
 * --duration long): where a cache stops keeping up shows as a rise.
 */
export function liveTimeSpec(an: Analysis, config: object, subtitle: string): vl.TopLevelSpec | null {
  const r = an.results;
  const f = figuresOf(an);
  if (!liveSettings(r.settings) || !f) return null;
  const values = f.points;
  if (!values.length) return null;
  const x = { field: 't', type: 'quantitative' as const, title: 'seconds into the run' };
  const color = {
    field: 'name',
    type: 'nominal' as const,
    title: null,
    scale: { scheme: 'tableau20' },
    legend: { labelLimit: 320 },
  };
  const text =
    `Live stream, ${liveSettings(r.settings)!.write_rate} writes/s: each window's req/s, ` +
    "its probes' staleness p99 and the XRANGEs it made per minute (its follower's reads: under the table)";
  return {
    ...chartHead(values, config, text, subtitle),
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
        encoding: { x, y: { field: 'calls', type: 'quantitative', title: 'XRANGEs per minute' }, color },
      },
    ],
  } as vl.TopLevelSpec;
}
