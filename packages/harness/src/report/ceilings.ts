// How far each contender is from the possible: the ceilings measured in the same invocation
// (Redis alone; each runtime and client with no HTTP; each runtime and framework serving a
// precomputed body) and each contender's efficiency, its median ÷ the lowest ceiling that applies.
import { workloadOfRun } from '../workloads';
import { runSubtitle } from './words';
import type { Analysis } from '../answers/analysis';
import { clientLabel, type Results } from '../model/results';
import { levelLabel } from './words';

/** "Redis" for the default server, the server's own name (valkey) for another. */
const serverLabel = (s: string | undefined) => (!s || s === 'redis' ? 'Redis' : s);

const fmt = (x: number | undefined, digits = 0) => (x === undefined || !Number.isFinite(x) ? '–' : x.toFixed(digits));

/** One row per ceiling: Redis alone per server, each HTTP ceiling, each client with no HTTP. */
function ceilingRows(an: Analysis): string[] {
  const r = an.results;
  const rows: string[] = [];
  // One row per server (--servers), each from its own measurements.
  for (const x of an.redisCeilings) {
    const name = serverLabel(x.server ?? r.settings.servers?.[0]);
    rows.push(
      `| ${name} alone: redis-benchmark \`${x.command}\`, c=${x.connections} | ${fmt(x.medianRps)} | ` +
        `${x.rps.map((v) => fmt(v)).join(', ')} (${x.rps.length} measurements) | – | ` +
        `${fmt(x.medianUsPerCall)} µs per call inside ${name} |`,
    );
  }
  const http = r.contenders.filter((c) => c.ceiling === 'http' && !c.self_check_of);
  for (const c of http.sort((a, b) => (b.rps?.median ?? 0) - (a.rps?.median ?? 0))) {
    const stack = `${c.runtime} ${c.variant ? `${c.framework} ${c.variant}` : c.framework}`;
    if (c.status !== 'ok' || !c.rps) {
      rows.push(`| HTTP: ${stack} (${c.name}) | ${c.status} | ${c.reason ?? ''} | – | – |`);
      continue;
    }
    const spread =
      c.rps.n === 1
        ? 'one run'
        : `${fmt(c.rps.ci.lo)}–${fmt(c.rps.ci.hi)} (${levelLabel(c.rps.ci.level)}, ${c.rps.n} runs)`;
    rows.push(
      `| HTTP: ${stack} (${c.name}) | ${fmt(c.rps.median)} | ${spread} | ${fmt(c.cpu_us_per_req)} | ` +
        'body precomputed at start |',
    );
  }
  for (const c of [...(r.ceilings?.client ?? [])].sort((a, b) => b.rps - a.rps)) {
    rows.push(
      `| client: ${clientLabel(c)}, no HTTP | ${fmt(c.rps)} | one ${fmt(c.seconds, 1)} s measurement | ` +
        `${fmt(c.cpu_us_per_read)} | ${c.concurrency} reads in flight, ` +
        `${PROBE_BODY[c.decode ?? 'default'] ?? 'plain transform'} |`,
    );
  }
  return rows;
}

/** How a client ceiling's probe made each body, by its decode. */
const PROBE_BODY: Record<string, string> = {
  default: 'plain transform',
  bytes: 'Buffers to the body',
  raw: "the raw reader's transcode",
};

export function ceilingsTable(an: Analysis): string {
  const r = an.results;
  const rows = ceilingRows(an);
  if (!rows.length) {
    return r.settings.ceilings === false && workloadOfRun(r.settings).ceilings.clients
      ? '**Ceilings not measured.** `npm run bench -- --ceilings` adds them (Redis alone, ' +
          'each runtime + client with no HTTP, each stack serving a precomputed body), ' +
          "with each contender's efficiency and where its CPU goes."
      : '';
  }
  const head = '| ceiling | req/s | spread | CPU µs/req | notes |\n|---|---:|---|---:|---|';
  return `**Ceilings, measured in this run** (never ranked with the contenders)\n\n${[head, ...rows].join('\n')}`;
}

/** Each dynamic contender's median as a share of the lowest ceiling that applies to it. */
export function efficiencyTable(an: Analysis): string {
  const rows = an.ranked.filter((c) => c.efficiency);
  if (!rows.length) return '';
  const head =
    '| contender | req/s | lowest ceiling | ceiling req/s | efficiency | of Redis alone |\n' +
    '|---|---:|---|---:|---:|---:|';
  const body = rows.map((c) => {
    const e = c.efficiency!;
    const ceiling =
      e.ceiling === 'redis' ? `${serverLabel(c.server ?? an.results.settings.servers?.[0])} alone` : e.ceiling;
    const redis = e.redis_share !== undefined ? `${fmt(e.redis_share * 100, 1)}%` : '–';
    // Above 100%: that ceiling, one measurement, ran below the contender, so it bounds nothing there.
    const over = e.value > 1 ? ' (above it: †)' : '';
    return (
      `| ${c.name} | ${fmt(c.rps!.median)} | ${ceiling} | ${fmt(e.ceiling_rps)} | ${fmt(e.value * 100, 1)}%${over} | ` +
      `${redis} |`
    );
  });
  const above = rows.some((c) => c.efficiency!.value > 1)
    ? "\n\n† The contender ran faster than that ceiling's one measurement: the ceiling ran slow there, and bounds " +
      'nothing for it.'
    : '';
  return (
    '**Efficiency**: median req/s ÷ the lowest ceiling that applies (Redis alone, ' +
    "the contender's runtime and client with no HTTP, or its runtime and framework serving a precomputed body); " +
    'and ÷ Redis alone, serving the same XRANGE to redis-benchmark in this run' +
    `\n\n${[head, ...body].join('\n')}${above}`
  );
}

/** Where the model misses by more than the analysis's tolerance, the leftover names the gap. */
function modelGap(an: Analysis, name: string, b: NonNullable<Results['contenders'][number]['breakdown']>): string {
  const gap = an.modelGaps.get(name);
  if (gap === 'within') return `within ${Math.round(an.modelTolerance * 100)}%`;
  return gap === 'more'
    ? `leftover +${fmt(b.leftover_us)} µs: ` +
        'the app spends more per request than its parts did alone (HTTP and client share one event loop and heap)'
    : `leftover ${fmt(b.leftover_us)} µs: ` +
        'the parts alone cost more than the whole (the client ceiling, one measurement, ran slow)';
}

const BREAKDOWN_NOTE =
  '**Cost breakdown per request** (app CPU = client + transform + HTTP + leftover; ' +
  "Redis runs in its own process. Client: the client ceiling's CPU per read less its transform; " +
  "transform: tinybench on a recorded reply; HTTP: the HTTP ceiling's CPU per request. " +
  "Model: one core runs the app, so 1e6 ÷ (client + transform + HTTP) req/s, or Redis's 1e6 ÷ µs per call if lower)";

/**
 * Where each dynamic contender's CPU per request goes, and the throughput the parts predict against the measured one.
 */
export function breakdownTable(an: Analysis): string {
  const rows = an.ranked.filter((c) => c.breakdown);
  if (!rows.length) return '';
  const head =
    '| contender | Redis µs/call | client µs | transform µs | HTTP µs | leftover µs | app CPU µs/req | ' +
    'predicted req/s | measured req/s | measured ÷ predicted | the gap |\n' +
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|';
  const body = rows.map((c) => {
    const b = c.breakdown!;
    return (
      `| ${c.name} | ${fmt(b.redis_us)} | ${fmt(b.client_us)} | ${fmt(b.transform_us)} | ${fmt(b.http_us)} | ` +
      `${fmt(b.leftover_us)} | ${fmt(b.measured_us)} | ${fmt(b.predicted_rps)} | ${fmt(b.measured_rps)} | ` +
      `${fmt((b.measured_rps / b.predicted_rps) * 100)}% | ${modelGap(an, c.name, b)} |`
    );
  });
  return [BREAKDOWN_NOTE, [head, ...body].join('\n')].join('\n\n');
}

/** Why a negative leftover is not drawn: it is no cost, only the error of parts measured apart. */
export const LEFTOVER_NOT_MEASURED =
  'leftover not measured: the parts, measured apart, sum to more than the whole ' +
  '(the client ceiling is one measurement)';

const PARTS = ['client_us', 'transform_us', 'http_us', 'leftover_us'] as const;

/**
 * The chart's rows: each part at or above zero as a segment, each measured total as a tick, and where the leftover
 * is negative a note at the end of the parts (no segment).
 */
function breakdownRows(rows: Analysis['ranked']) {
  const segments = rows.flatMap((c) =>
    PARTS.map((part, order) => ({ name: c.name, part: part.replace('_us', ''), order, us: c.breakdown![part] })).filter(
      (v) => v.us >= 0,
    ),
  );
  const totals = rows.map((c) => ({ name: c.name, us: c.breakdown!.measured_us }));
  const unmeasured = rows
    .filter((c) => c.breakdown!.leftover_us < 0)
    .map(({ name, breakdown: b }) => ({
      name,
      end: b!.client_us + b!.transform_us + b!.http_us,
      text: `leftover not measured: the parts ${fmt(-b!.leftover_us)} µs past the total`,
      why: LEFTOVER_NOT_MEASURED,
    }));
  return { segments, totals, unmeasured };
}

/**
 * Stacked bars of the app's CPU per request, one per contender: client, transform, HTTP and the leftover, which add
 * up to the measured total (a tick). A negative leftover (the parts alone cost more than the whole) is not drawn: the
 * row says the leftover was not measured and by how much the parts go past the tick. No part is drawn below zero.
 * Redis's own cost per call is in the table: it is not the app's CPU.
 */
export function breakdownSpec(an: Analysis): object | null {
  const rows = an.ranked.filter((c) => c.breakdown);
  if (!rows.length) return null;
  const { segments, totals, unmeasured } = breakdownRows(rows);
  const y = { field: 'name', type: 'nominal', sort: null, title: null };
  const parts = PARTS.map((p) => p.replace('_us', ''));
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: {
      text: "The app's CPU µs per request: where it goes (tick: the measured total)",
      subtitle: [runSubtitle(an.results), `${LEFTOVER_NOT_MEASURED.replace(':', ' where')}`],
      subtitleFontSize: 11,
      anchor: 'start',
    },
    width: 560,
    height: { step: 20 },
    layer: [
      {
        data: { values: segments },
        mark: { type: 'bar', tooltip: true },
        encoding: {
          y,
          x: { field: 'us', type: 'quantitative', stack: 'zero', title: 'µs per request' },
          color: { field: 'part', type: 'nominal', sort: parts, title: null, legend: { orient: 'top' } },
          order: { field: 'order', type: 'quantitative' },
        },
      },
      {
        data: { values: totals },
        mark: { type: 'tick', color: 'black', thickness: 2 },
        encoding: { y, x: { field: 'us', type: 'quantitative' } },
      },
      {
        data: { values: unmeasured },
        mark: { type: 'text', align: 'left', dx: 6, fontSize: 11, color: '#555' },
        encoding: {
          y,
          x: { field: 'end', type: 'quantitative' },
          text: { field: 'text' },
          tooltip: [{ field: 'why' }],
        },
      },
    ],
    config: {
      font: 'DejaVu Sans',
      view: { stroke: null },
      axis: { labelFontSize: 11, titleFontSize: 12, labelLimit: 560 },
      legend: { labelFontSize: 11 },
    },
  };
}
