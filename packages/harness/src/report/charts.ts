// Charts from a results.json: Vega-Lite specs rendered to SVG by Vega, rasterised by resvg.
import { Resvg } from '@resvg/resvg-js';
import * as vega from 'vega';
import * as vl from 'vega-lite';
import type { Analysis } from '../answers/analysis';
import type { Results } from '../model/results';
import { breakdownSpec } from './ceilings';
import { LAT } from './table';
import { liveTimeSpec } from './live';
import { upsertTimeSpec } from './upsert';
import { changesSpec } from './changes';
import { answersSpec } from './forest';

const FONT = 'DejaVu Sans';

/**
 * Vega-Lite's warnings, less the one a faceted layer with independent y scales always gives (the forest plot of every
 * answer: each question's panel its own rows), which says nothing wrong with the chart.
 */
const logger = (() => {
  const l = vega.logger(vega.Warn);
  const warn = l.warn.bind(l);
  l.warn = (...args: unknown[]) =>
    String(args[0]).startsWith('Detected faceted independent scales that union domain') ? l : warn(...args);
  return l;
})();

export async function renderPng(spec: vl.TopLevelSpec): Promise<Buffer> {
  const view = new vega.View(vega.parse(vl.compile(spec, { logger }).spec), { renderer: 'none' });
  const svg = await view.toSVG();
  view.finalize();
  const resvg = new Resvg(svg, {
    background: 'white',
    fitTo: { mode: 'zoom', value: 2 },
    font: { loadSystemFonts: true, defaultFontFamily: FONT },
  });
  return Buffer.from(resvg.render().asPng());
}

const config = {
  font: FONT,
  view: { stroke: null },
  axis: { labelFontSize: 11, titleFontSize: 12, labelLimit: 420 },
  title: { fontSize: 14, anchor: 'start' as const },
};

/** Bars of a median per contender, whiskers for its interval, rank intervals in the labels. */
function medianBars(an: Analysis, which: 'rps' | 'relative', title: string, axis: string): vl.TopLevelSpec {
  const values = an.ranked
    .filter((c) => c[which])
    .map((c) => {
      const v = which === 'rps' ? { median: c.rps!.median, lo: c.rps!.ci.lo, hi: c.rps!.ci.hi } : c.relative!;
      const digits = which === 'rps' ? 0 : 2;
      return {
        name: `${c.rank}. ${c.name}${c.static ? ' (static)' : ''}`,
        runtime: c.runtime,
        median: v.median,
        lo: v.lo,
        hi: v.hi,
        text: v.median.toFixed(digits),
      };
    });
  // The ranking is in the order of the estimate (median req/s), the rank interval in each label: every layer keeps it.
  const y = { field: 'name', type: 'nominal' as const, sort: null, title: null };
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: { text: title, subtitle: subtitle(an.results) },
    width: 560,
    data: { values },
    encoding: { y },
    layer: [
      {
        mark: { type: 'bar', tooltip: { content: 'data' } },
        encoding: {
          x: { field: 'median', type: 'quantitative', title: axis },
          color: { field: 'runtime', type: 'nominal' },
        },
      },
      { mark: { type: 'rule' }, encoding: { x: { field: 'lo', type: 'quantitative' }, x2: { field: 'hi' } } },
      {
        mark: { type: 'text', align: 'left', dx: 4 },
        encoding: { x: { field: 'hi', type: 'quantitative' }, text: { field: 'text', type: 'nominal' } },
      },
    ],
    config,
  };
}

export const reqSecSpec = (an: Analysis) =>
  medianBars(
    an,
    'rps',
    'Requests per second (median of runs; whiskers: its interval; "2–5": the ranks the decided comparisons allow)',
    'successful responses / s',
  );

export const relativeSpec = (an: Analysis) =>
  medianBars(
    an,
    'relative',
    'Relative index: median ÷ geometric mean of the dynamic contenders (whiskers: interval)',
    "relative to this run's reference",
  );

/** A contender's latency chart: its chart group; results without chart groups draw Next.js apart. */
const groupOf = (c: { chart_group?: string | null; framework: string }) =>
  c.chart_group === undefined ? (c.framework === 'next' ? 'next' : 'server') : (c.chart_group ?? 'server');

/** Latency percentiles of one chart group (a manifest's chartGroup; the servers when it has none). */
export function latencySpec(an: Analysis, which: string): vl.TopLevelSpec {
  const values = an.ranked
    .filter((c) => groupOf(c) === which)
    .flatMap((c) =>
      LAT.map((p, i) => ({
        name: c.static ? `${c.name} (static)` : c.name,
        percentile: p,
        order: i,
        ms: c.latency_ms?.[p] ?? null,
      })),
    );
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: {
      text: `${groupTitle(which)}: latency percentiles (ms, median of runs)`,
      subtitle: subtitle(an.results),
    },
    width: 560,
    height: 320,
    data: { values },
    mark: { type: 'line', point: true, tooltip: true },
    // In report.html a click on a legend entry brings that contender forward.
    params: [{ name: 'pick', select: { type: 'point', fields: ['name'] }, bind: 'legend' }],
    encoding: {
      opacity: { condition: { param: 'pick', value: 1 }, value: 0.15 },
      x: { field: 'percentile', type: 'ordinal', sort: [...LAT], title: 'percentile' },
      y: { field: 'ms', type: 'quantitative', title: 'latency (ms)' },
      color: { field: 'name', type: 'nominal', title: null, legend: { orient: 'bottom', columns: 2, labelLimit: 400 } },
    },
    config,
  };
}

/** "Servers", "Next": a chart group as a title. */
const groupTitle = (which: string) => (which === 'server' ? 'Servers' : `${which[0]!.toUpperCase()}${which.slice(1)}`);

function subtitle(r: Results): string {
  const s = r.settings;
  return (
    `${r.environment.cpu_model}, ${r.environment.logical_cpus} CPUs · ${s.workload.toUpperCase()} · ` +
    `c=${s.connections[0]} · runs ${s.runs} × ${s.requests ?? `${s.duration_s}s`}`
  );
}

/**
 * Every chart of a run, by file name: the changes' and the answers' forest plots, req/s, relative index, latency per
 * chart group, and the cost breakdown when measured.
 */
export function charts(an: Analysis): Record<string, vl.TopLevelSpec> {
  const r = an.results;
  const groups = ['server', ...new Set(r.contenders.map(groupOf).filter((g) => g !== 'server'))];
  const breakdown = breakdownSpec(an);
  const live = liveTimeSpec(an, config);
  const upsert = upsertTimeSpec(an, config);
  const changes = changesSpec(r, config);
  const answers = answersSpec(an, config);
  return {
    ...(changes ? { 'changes.png': changes } : {}),
    ...(answers ? { 'answers.png': answers } : {}),
    'req-sec.png': reqSecSpec(an),
    'relative-index.png': relativeSpec(an),
    ...Object.fromEntries(groups.map((g) => [`${g}-latency.png`, latencySpec(an, g)])),
    ...(breakdown ? { 'breakdown.png': breakdown as vl.TopLevelSpec } : {}),
    ...(live ? { 'live-over-time.png': live } : {}),
    ...(upsert ? { 'upsert-over-time.png': upsert } : {}),
  };
}
