// Charts from a results.json: Vega-Lite specs rendered to SVG by Vega, rasterised by resvg.
import { runSubtitle } from './words';
import { isFloor } from '../model/questions';
import { Resvg } from '@resvg/resvg-js';
import * as vega from 'vega';
import * as vl from 'vega-lite';
import type { Analysis } from '../answers/analysis';
import type { Results } from '../model/results';
import { breakdownSpec } from './ceilings';
import { LAT } from './table';
import { workloadOfRun } from '../workloads';
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
  axis: { labelFontSize: 11, titleFontSize: 12, labelLimit: 560 },
  title: { fontSize: 14, anchor: 'start' as const },
};

/**
 * Tableau's 20 colours, the ten strong ones first: a chart of up to 20 series gives each its own colour, and one of up
 * to 10 only strong ones.
 */
/**
 * vega's tableau20, its ten dark shades first and then their light ones: no two of the twenty closer than a CIE76
 * ΔE of 12 (tableau10's pink #ff9da6 beside tableau20's #ff9d98 was 7).
 */
const PALETTE = [
  ...['#4c78a8', '#f58518', '#54a24b', '#b79a20', '#439894', '#e45756', '#79706e', '#d67195', '#b279a2', '#9e765f'],
  ...['#9ecae9', '#ffbf79', '#88d27a', '#f2cf5b', '#83bcb6', '#ff9d98', '#bab0ac', '#fcbfd2', '#d6a5c9', '#d8b5a5'],
];
/** Lines: the twenty above, then category20b, so that a chart of up to 40 lines never repeats a colour. */
const LINE_PALETTE = [
  ...PALETTE,
  ...['#393b79', '#637939', '#8c6d31', '#843c39', '#7b4173', '#5254a3', '#8ca252', '#bd9e39', '#ad494a', '#a55194'],
  ...['#6b6ecf', '#b5cf6b', '#e7ba52', '#d6616b', '#ce6dbd', '#9c9ede', '#cedb9c', '#e7cb94', '#e7969c', '#de9ed6'],
];
/**
 * A colour that reads as text on white: a pale one (relative luminance above 0.3, WCAG's formula: a contrast under
 * 3:1) darkened toward black until it is not, keeping its hue.
 */
export function readable(hex: string): string {
  const rgb = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
  const lin = (c: number) => (c / 255 <= 0.04045 ? c / 255 / 12.92 : ((c / 255 + 0.055) / 1.055) ** 2.4);
  const lum = (xs: number[]) => 0.2126 * lin(xs[0]!) + 0.7152 * lin(xs[1]!) + 0.0722 * lin(xs[2]!);
  let out = rgb;
  for (let k = 0.9; lum(out) > 0.3 && k > 0; k -= 0.1) out = rgb.map((c) => Math.round(c * k));
  return `#${out.map((c) => c.toString(16).padStart(2, '0')).join('')}`;
}
/** The colour of a static contender (it serves a page built once, with no Redis read per request). */
const STATIC_COLOUR = '#c8c8c8';
const STATIC_GROUP = 'static: no Redis read';

/**
 * Bars of the median req/s per contender, whiskers for its interval, rank intervals in the labels; by runtime, with
 * the static contenders (no Redis read per request) last and grey, set apart from those that read Redis.
 */
export function reqSecSpec(an: Analysis): vl.TopLevelSpec {
  const shown = an.ranked.filter((c) => c.rps);
  const ordered = [...shown.filter((c) => !c.static), ...shown.filter((c) => c.static)];
  // The ranks among the stacks one would pick, as the README's table gives them; static pages and floors unranked.
  const rank = new Map(an.top?.ranks.map((x) => [x.name, x.rank]));
  const values = ordered.map((c) => ({
    name: c.static
      ? `${c.name} (static)`
      : isFloor(c)
        ? `${c.name} (floor: writes nothing)`
        : `${c.name} [rank ${rank.get(c.name) ?? c.rank}]`,
    runtime: c.runtime,
    group: c.static ? STATIC_GROUP : c.runtime,
    median: c.rps!.median,
    lo: c.rps!.ci.lo,
    hi: c.rps!.ci.hi,
    text: c.rps!.median.toFixed(0),
  }));
  // By name, so a runtime keeps its colour from run to run.
  const runtimes = [...new Set(ordered.filter((c) => !c.static).map((c) => c.runtime))].sort();
  const statics = ordered.some((c) => c.static);
  const domain = [...runtimes, ...(statics ? [STATIC_GROUP] : [])];
  const range = [...runtimes.map((_, i) => PALETTE[i % PALETTE.length]!), ...(statics ? [STATIC_COLOUR] : [])];
  // The ranking is in the order of the estimate (median req/s), the rank interval in each label: every layer keeps it.
  const y = { field: 'name', type: 'nominal' as const, sort: null, title: null };
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: {
      text:
        'Requests per second (median over launches; whiskers: its interval, at the level its launches allow, ' +
        'results.md; [rank 2–5]: the ranks the decided comparisons allow)',
      subtitle: subtitle(an.results),
    },
    width: 560,
    data: { values },
    encoding: { y },
    layer: [
      {
        mark: { type: 'bar', tooltip: { content: 'data' } },
        encoding: {
          x: { field: 'median', type: 'quantitative', title: 'successful responses / s' },
          color: {
            field: 'group',
            type: 'nominal',
            title: null,
            scale: { domain, range },
            legend: { labelLimit: 300, orient: 'bottom' },
          },
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

/** A contender's latency chart: its chart group; results without chart groups draw Next.js apart. */
const groupOf = (c: { chart_group?: string | null; framework: string }) =>
  c.chart_group === undefined ? (c.framework === 'next' ? 'next' : 'server') : (c.chart_group ?? 'server');

/**
 * Pixels between two direct labels; a panel is at least 190 px high, and twice its labels' height when they need more:
 * lines bunched near the bottom then push only their own labels up, not every label of the panel.
 */
const LABEL_PX = 13;
const panelPx = (lines: number) => Math.max(190, 2 * lines * LABEL_PX);

/**
 * Where each line's label goes, in ms: at its p99, pushed apart so no two labels are closer than LABEL_PX on a panel
 * of `height` px whose y axis runs from 0 to `top` ms: down from the top, then back up from the panel's bottom edge
 * (only the labels that crowd it move).
 */
export function labelPositions(p99s: number[], top: number, height = panelPx(p99s.length)): number[] {
  const px = (ms: number) => height * (1 - ms / top);
  const order = p99s.map((ms, i) => ({ i, y: px(ms) })).sort((a, b) => a.y - b.y);
  for (let k = 1; k < order.length; k++) order[k]!.y = Math.max(order[k]!.y, order[k - 1]!.y + LABEL_PX);
  for (let k = order.length - 1; k >= 0; k--)
    order[k]!.y = Math.min(order[k]!.y, k === order.length - 1 ? height : order[k + 1]!.y - LABEL_PX);
  const out = new Array<number>(p99s.length);
  for (const o of order) out[o.i] = top * (1 - o.y / height);
  return out;
}

/** Each line's name at its end, in its colour, darkened where a pale one would not read on white. */
function labelLayer(series: { name: string; colour: string; label: number }[], x: object, y: object) {
  return {
    data: {
      values: series.map((s) => ({ name: s.name, percentile: 'p99', label: s.label, ink: readable(s.colour) })),
    },
    mark: { type: 'text' as const, align: 'left' as const, dx: 10, fontSize: 10 },
    encoding: {
      x,
      y: { field: 'label', ...y },
      text: { field: 'name' },
      color: { field: 'ink', type: 'nominal' as const, scale: null },
    },
  };
}

/**
 * Latency percentiles of one chart group (a manifest's chartGroup; the servers when it has none): a panel per runtime,
 * on one y scale, each line labelled at its end (no legend to look up), and no two lines of the chart the same colour
 * while it has at most 40, so a contender keeps one colour across panels (more: only one panel's lines differ).
 */
export function latencySpec(an: Analysis, which: string): vl.TopLevelSpec {
  const members = an.ranked.filter((c) => groupOf(c) === which && c.latency_ms);
  const runtimes = [...new Set(members.map((c) => c.runtime))];
  let next = 0;
  // One y scale for every panel, so that panels compare at a glance.
  const top = Math.max(1, ...members.map((c) => Math.max(...LAT.map((p) => c.latency_ms![p] ?? 0)))) * 1.08;
  const panels = runtimes.map((runtime) => {
    const own = members.filter((c) => c.runtime === runtime);
    const labels = labelPositions(
      own.map((c) => c.latency_ms!.p99 ?? 0),
      top,
    );
    const series = own.map((c, i) => ({
      name: c.static ? `${c.name} (static)` : c.name,
      colour: LINE_PALETTE[(members.length <= LINE_PALETTE.length ? next++ : i) % LINE_PALETTE.length]!,
      label: labels[i]!,
      points: LAT.map((p) => ({ percentile: p, ms: c.latency_ms![p] ?? null })),
    }));
    const colour = {
      field: 'name',
      type: 'nominal' as const,
      legend: null,
      scale: { domain: series.map((x) => x.name), range: series.map((x) => x.colour) },
    };
    const x = { field: 'percentile', type: 'ordinal' as const, sort: [...LAT], title: 'percentile' };
    const y = { type: 'quantitative' as const, title: 'latency (ms)', scale: { domain: [0, top], nice: false } };
    return {
      title: { text: runtime, fontSize: 12 },
      width: 460,
      height: panelPx(own.length),
      layer: [
        {
          data: { values: series.flatMap((x) => x.points.map((p) => ({ name: x.name, ...p }))) },
          mark: { type: 'line' as const, point: true, tooltip: true },
          encoding: { x, y: { field: 'ms', ...y }, color: colour },
        },
        labelLayer(series, x, y),
      ],
    };
  });
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: {
      text: `${groupTitle(which)}: latency percentiles (ms, median over launches), by runtime, on one y scale`,
      subtitle: subtitle(an.results),
    },
    vconcat: panels,
    resolve: { scale: { color: 'independent', y: 'independent' } },
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
