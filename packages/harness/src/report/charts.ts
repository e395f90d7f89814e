// Charts from a results.json: the Vega-Lite specs (report/render.ts draws them).
import { runSubtitle } from './words';
import { isFloor } from '../model/questions';
import type * as vl from 'vega-lite';
import type { Analysis } from '../answers/analysis';
import type { Results } from '../model/results';
import { breakdownSpec } from './ceilings';
import { workloadOfRun } from '../workloads';
import { changesSpec } from './changes';
import { answersSpec } from './forest';

export const FONT = 'DejaVu Sans';

const config = {
  font: FONT,
  view: { stroke: null },
  axis: { labelFontSize: 11, titleFontSize: 12, labelLimit: 560 },
  legend: { labelFontSize: 11 },
  title: { fontSize: 14, subtitleFontSize: 11, anchor: 'start' as const },
};

/**
 * vega's tableau20, its ten dark shades first and then their light ones: no two of the twenty closer than a CIE76
 * ΔE of 12 (tableau10's pink #ff9da6 beside tableau20's #ff9d98 was 7).
 */
const PALETTE = [
  ...['#4c78a8', '#f58518', '#54a24b', '#b79a20', '#439894', '#e45756', '#79706e', '#d67195', '#b279a2', '#9e765f'],
  ...['#9ecae9', '#ffbf79', '#88d27a', '#f2cf5b', '#83bcb6', '#ff9d98', '#bab0ac', '#fcbfd2', '#d6a5c9', '#d8b5a5'],
];
/** The colour of a static contender (it serves a page built once, with no Redis read per request). */
const STATIC_COLOUR = '#c8c8c8';
const STATIC_GROUP = 'static: no Redis read';

type Shown = { name: string; runtime: string; static?: boolean };
/**
 * A colour per runtime of the run, by name so that a runtime keeps its colour from run to run and from chart to chart
 * (a chart of node alone draws node's); the static contenders (no Redis read per request) grey, after them.
 */
function runtimeColours(shown: Shown[], all: Shown[]) {
  const group = (c: Shown) => (c.static ? STATIC_GROUP : c.runtime);
  const every = [...new Set(all.map((c) => c.runtime))].sort();
  const runtimes = every.filter((r) => shown.some((c) => !c.static && c.runtime === r));
  const statics = shown.some((c) => c.static);
  const domain = [...runtimes, ...(statics ? [STATIC_GROUP] : [])];
  const colour = (r: string) => PALETTE[every.indexOf(r) % PALETTE.length]!;
  return { group, scale: { domain, range: [...runtimes.map(colour), ...(statics ? [STATIC_COLOUR] : [])] } };
}

/**
 * Bars of the median req/s per contender, whiskers for its interval, rank intervals in the labels; by runtime, with
 * the static contenders (no Redis read per request) last and grey, set apart from those that read Redis.
 */
export function reqSecSpec(an: Analysis): vl.TopLevelSpec {
  const shown = an.ranked.filter((c) => c.rps);
  const ordered = [...shown.filter((c) => !c.static), ...shown.filter((c) => c.static)];
  // Each label's rank is the one "Every contender" gives it (every contender ranked, static pages and floors too), so
  // the page has one rank per contender.
  const { group, scale } = runtimeColours(ordered, an.ranked);
  const values = ordered.map((c) => ({
    name: c.rank ? `${shownName(c)} [rank ${c.rank}]` : shownName(c),
    runtime: c.runtime,
    group: group(c),
    median: c.rps!.median,
    lo: c.rps!.ci.lo,
    hi: c.rps!.ci.hi,
    text: c.rps!.median.toFixed(0),
  }));
  // The ranking is in the order of the estimate (median req/s), the rank interval in each label: every layer keeps it.
  const y = { field: 'name', type: 'nominal' as const, sort: null, title: null };
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: {
      text: 'Requests per second (median over launches)',
      subtitle: [
        subtitle(an.results),
        'whiskers: its interval, at the level its launches allow (results.md)',
        "[rank 2–5]: the ranks the decided comparisons allow among every contender, as in results.md's table",
      ],
    },
    width: 560,
    data: { values },
    encoding: { y },
    layer: [
      {
        mark: { type: 'bar', tooltip: { content: 'data' } },
        encoding: {
          x: { field: 'median', type: 'quantitative', title: 'successful responses / s', axis: { tickCount: 8 } },
          color: { field: 'group', type: 'nominal', title: null, scale, legend: { labelLimit: 300, orient: 'bottom' } },
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

/** A contender's name in a chart: a static page and the writes' PING floor say what they are. */
const shownName = (c: Shown & { settings?: { write?: string } }) =>
  c.static ? `${c.name} (static)` : isFloor(c) ? `${c.name} (floor: writes nothing)` : c.name;

/** A contender's latency chart: its chart group; results without chart groups draw Next.js apart. */
const groupOf = (c: { chart_group?: string | null; framework: string }) =>
  c.chart_group === undefined ? (c.framework === 'next' ? 'next' : 'server') : (c.chart_group ?? 'server');

/** Milliseconds as a label gives them: two significant figures, whole ms from 10. */
const ms = (x: number) => (x >= 10 ? x.toFixed(0) : x.toPrecision(2));

/** The x scale of a latency chart: log when its values span more than 4×, with round ticks, else linear from 0. */
function latencyAxis(lo: number, hi: number) {
  const title = 'latency per request, ms (median over launches): dot p50, bar to p99';
  if (hi / lo <= 4) return { scale: { domain: [0, hi * 1.05], nice: false }, axis: { grid: true }, title };
  const ticks = [0.1, 1, 10, 100, 1000]
    .flatMap((d) => [1, 2, 3, 5, 7].map((k) => k * d))
    .filter((t) => t >= lo / 1.2 && t <= hi * 1.05);
  return {
    scale: { type: 'log' as const, domain: [lo / 1.2, hi * 1.05], nice: false },
    axis: { values: ticks, format: '~g', grid: true },
    title: `${title} (log scale)`,
  };
}

/**
 * Latency of one chart group (a manifest's chartGroup; the servers when it has none): one row per contender, its name
 * the row's label, fastest p50 first; a dot at the p50 and a bar from it to the p99, the figures at the bar's end.
 * Coloured by runtime, as req-sec.png is.
 */
export function latencySpec(an: Analysis, which: string): vl.TopLevelSpec {
  const members = an.ranked
    .filter((c) => groupOf(c) === which && c.latency_ms?.p50 !== undefined && c.latency_ms.p99 !== undefined)
    .sort((a, b) => a.latency_ms!.p50 - b.latency_ms!.p50);
  const { group, scale } = runtimeColours(members, an.ranked);
  const values = members.map(({ latency_ms: l, ...c }) => ({
    name: shownName(c),
    group: group(c),
    p50: l!.p50,
    p99: l!.p99,
    text: `p50 ${ms(l!.p50)} · p99 ${ms(l!.p99)}`,
  }));
  const x = {
    type: 'quantitative' as const,
    ...latencyAxis(Math.min(...values.map((v) => v.p50)), Math.max(...values.map((v) => v.p99))),
  };
  const color = {
    field: 'group',
    type: 'nominal' as const,
    title: null,
    scale,
    legend: { orient: 'top' as const, labelLimit: 300 },
  };
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: { text: `${groupTitle(which)}: latency per request, fastest p50 first`, subtitle: subtitle(an.results) },
    width: 420,
    height: { step: 20 },
    data: { values },
    encoding: { y: { field: 'name', type: 'nominal', sort: null, title: null, axis: { grid: true } } },
    layer: [
      {
        mark: { type: 'bar', height: 6, opacity: 0.55, tooltip: true },
        encoding: { x: { field: 'p50', ...x }, x2: { field: 'p99' }, color },
      },
      { mark: { type: 'point', filled: true, size: 60, opacity: 1 }, encoding: { x: { field: 'p50', ...x }, color } },
      {
        mark: { type: 'text', align: 'left', dx: 5, fontSize: 11, color: '#333' },
        encoding: { x: { field: 'p99', ...x }, text: { field: 'text' } },
      },
    ],
    config,
  } as vl.TopLevelSpec;
}

/** "Servers", "Next": a chart group as a title. */
const groupTitle = (which: string) => (which === 'server' ? 'Servers' : `${which[0]!.toUpperCase()}${which.slice(1)}`);

const subtitle = (r: Results) => runSubtitle(r);

/**
 * Every chart of a run, by file name: the changes' and the answers' forest plots, req/s, latency per chart group, and
 * the cost breakdown when measured.
 */
export function charts(an: Analysis): Record<string, vl.TopLevelSpec> {
  const r = an.results;
  const groups = ['server', ...new Set(r.contenders.map(groupOf).filter((g) => g !== 'server'))];
  const breakdown = breakdownSpec(an);
  // The workload's own charts (workloads/): the live stream's and the writes' over time.
  const own = workloadOfRun(r.settings).charts.flatMap((c) => {
    const spec = c.spec(an, config, subtitle(r));
    return spec ? [[c.file, spec] as const] : [];
  });
  const changes = changesSpec(r, config);
  const answers = answersSpec(an, config);
  return {
    ...(changes ? { 'changes.png': changes } : {}),
    ...(answers ? { 'answers.png': answers } : {}),
    'req-sec.png': reqSecSpec(an),
    ...Object.fromEntries(groups.map((g) => [`${g}-latency.png`, latencySpec(an, g)])),
    ...(breakdown ? { 'breakdown.png': breakdown as vl.TopLevelSpec } : {}),
    ...Object.fromEntries(own),
  };
}
