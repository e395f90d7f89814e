// The forest plot of every answer: each comparison of the family, A ÷ B req/s with its interval
// on a log axis, grouped by question, decided / equal / open told apart by colour and shape, the
// ±target_ci_pct band ("equal" needs the whole interval inside it) shaded. The --against forest
// plot (changes.ts) draws its pairs the same way.
import { asFactor, pooledDays, runSubtitle } from './words';
import type * as vl from 'vega-lite';
import type { Analysis, AnswerFigures } from '../answers/analysis';
import { labeller, pct, where } from './answers';
import { pairsLayer } from './changes';

/** An answer's state in the legend. */
export const answerState = (a: AnswerFigures, equalPct: number) =>
  a.verdict === 'faster' ? 'decided' : a.verdict === 'equal' ? `equal within ±${equalPct}%` : 'open';

const finite = (a: AnswerFigures) => Number.isFinite(a.lo) && Number.isFinite(a.hi) && a.lo > 0;

/** What a point says beside it: "iovalkey 2.1×" / "node +45%" decided (the faster), "equal ±8%", "open". */
function pointText(a: AnswerFigures, label: (name: string) => string): string {
  if (a.verdict === 'equal') return `equal ±${pct(a.bound)}`;
  if (a.verdict !== 'faster') return 'open';
  const f = a.sides.factor;
  return `${label(a.sides.winner)} ${asFactor(f) ? `${f.toFixed(1)}×` : `+${pct(f - 1)}`}`;
}

/** Each answer with an interval as the plot draws it, in the order of the questions. */
export function forestValues(an: Analysis) {
  const equalPct = an.results.settings.target_ci_pct;
  return an.questions.flatMap((q) => {
    const label = labeller(an, q);
    return an.answers
      .filter((a) => a.question === q.id && !a.out && finite(a))
      .map((a) => ({
        question: where(q),
        name: `${label(a.a)} ÷ ${label(a.b)}`,
        a: a.a,
        b: a.b,
        ratio: a.ratio,
        lo: a.lo,
        hi: a.hi,
        state: answerState(a, equalPct),
        text: pointText(a, label),
      }));
  });
}

/** The widest the forest's axis goes: the ratios beyond are drawn at its edge. */
const EDGE = [0.2, 5] as const;

/** The log x axis around every interval and the ±equal band, and the three states' colours and shapes. */
function encodings(values: { lo: number; hi: number }[], equalPct: number) {
  const e = equalPct / 100;
  // Within 0.2×–5×: an outlier (a 24× slower page) would squeeze every other interval into a sliver. Beyond it, an
  // interval is drawn to the edge and its label gives its size.
  const lo = Math.max(EDGE[0], Math.min(1 / (1 + 2 * e), ...values.map((v) => v.lo)) / 1.02);
  const hi = Math.min(EDGE[1], Math.max(1 + 2 * e, ...values.map((v) => v.hi)) * 1.02);
  const ticks = [0.2, 0.25, 0.33, 0.5, 0.67, 1, 1.5, 2, 3, 4, 5].filter((t) => t >= lo && t <= hi);
  const x = {
    type: 'quantitative' as const,
    scale: { type: 'log' as const, domain: [lo, hi], nice: false, clamp: true },
    axis: { values: ticks, format: '~g', grid: true },
    title: 'A ÷ B req/s (log scale): right of 1, A is faster',
  };
  const states = ['decided', `equal within ±${equalPct}%`, 'open'];
  const color = {
    field: 'state',
    type: 'nominal',
    title: null,
    scale: { domain: states, range: ['#1f77b4', '#2e8b57', '#999999'] },
    legend: { orient: 'top', labelLimit: 300 },
  };
  const shape = {
    field: 'state',
    type: 'nominal',
    title: null,
    scale: { domain: states, range: ['circle', 'diamond', 'square'] },
  };
  return { x, color, shape, domain: [lo, hi] as const };
}

/** A short label's width, as a share of the plot's: about 70 px of 340. */
const LABEL_SHARE = 0.2;

/**
 * Which end of its interval an answer's label goes beside, so that it crosses neither the dashed line at 1 nor the
 * plot's edge where it can help it: left of an interval below 1 (when there is room), left of one that ends within a
 * label's width of the axis' right end when there is room before 1, else right. `share`: the label's width, as a
 * share of the plot's.
 */
export function labelSide(
  v: { lo: number; hi: number },
  [lo, hi]: readonly [number, number],
  share = LABEL_SHARE,
): 'left' | 'right' {
  const at = (r: number) => (Math.log(Math.min(hi, Math.max(lo, r))) - Math.log(lo)) / (Math.log(hi) - Math.log(lo));
  const roomLeft = at(v.lo) - (v.lo > 1 ? at(1) : 0);
  if (roomLeft < share) return 'right';
  return v.hi < 1 || at(v.hi) > 1 - share ? 'left' : 'right';
}

/** A mark at the axis' edge where an interval goes beyond it (its label gives its size). */
function clipLayer(x: object, edge: number, filter: string, shape: string) {
  return {
    transform: [{ filter }],
    mark: { type: 'point', shape, filled: true, size: 70, color: '#333' },
    encoding: { x: { datum: edge, ...x }, y: { field: 'name', type: 'nominal', sort: null, title: null } },
  };
}

/** Where the plotted answers come from: the runs pooled, or the one run. */
function sourceOf(an: Analysis): string {
  const p = an.pool;
  const latest = an.results.started_at.slice(0, 10);
  if (!p) return `the run of ${latest}`;
  const { count, span } = pooledDays(p.runs);
  const when = span.includes(' to ') ? `from ${span}` : `on ${span}`;
  // Over two machines or more, an answer's point is its machines' geometric mean and its bar the span of theirs.
  const spans = p.machines > 1 ? "; a bar measured on two machines or more spans the machines' intervals" : '';
  return `pooled over ${count} runs on ${p.machines} machine${p.machines === 1 ? '' : 's'}, ${when}${spans}`;
}

/** The plot's width: two columns of panels, their row labels and their figures fit 1,200 px. */
const PLOT_PX = 340;
/** A label's width in px at 11 px DejaVu Sans (6.8 px a character, wide for the digits) and its gap. */
const labelPx = (text: string) => text.length * 6.8 + 8;

/** Where the questions split into two columns of about equal height, in their order (a panel: its rows + 2.5). */
export function columnsOf(rows: number[]): number {
  const cost = rows.map((n) => n + 2.5);
  const total = cost.reduce((t, c) => t + c, 0);
  let best = rows.length;
  let height = total;
  for (let k = 1, left = 0; k < rows.length; k++) {
    left += cost[k - 1]!;
    if (Math.max(left, total - left) < height) [best, height] = [k, Math.max(left, total - left)];
  }
  return best;
}

/** The pairs' layer with its labels at 11 px, the size the page is read at. */
function pairs(x: object, color: object, shape: object) {
  const p = pairsLayer(null, x, color, shape);
  const at11 = (l: (typeof p.layer)[number]) =>
    l.mark.type === 'text' ? { ...l, mark: { ...l.mark, fontSize: 11 } } : l;
  return { ...p, layer: p.layer.map(at11) };
}

/**
 * The plot: one panel per question in two columns, one row per comparison, the shaded ±equal band and a dashed line at
 * 1; every panel's axis has its ticks, and the axis is named once, under the title.
 */
export function answersSpec(an: Analysis, config: object): vl.TopLevelSpec | null {
  const values = forestValues(an);
  if (!values.length) return null;
  const equalPct = an.results.settings.target_ci_pct;
  const e = equalPct / 100;
  const { x: shared, color, shape, domain } = encodings(values, equalPct);
  const x = { ...shared, title: null };
  const questions = [...new Set(values.map((v) => v.question))];
  const split = columnsOf(questions.map((q) => values.filter((v) => v.question === q).length));
  const panel = (question: string) => ({
    title: { text: question, fontSize: 12, anchor: 'start' as const, frame: 'group' as const, offset: 4 },
    transform: [{ filter: { field: 'question', equal: question } }],
    width: PLOT_PX,
    height: { step: 20 },
    layer: [
      { mark: { type: 'rect', color: '#e3f1dd' }, encoding: { x: { datum: 1 / (1 + e), ...x }, x2: { datum: 1 + e } } },
      { mark: { type: 'rule', color: '#555', strokeDash: [4, 3] }, encoding: { x: { datum: 1, ...x } } },
      pairs(x, color, shape),
      clipLayer(x, domain[0], `datum.lo < ${domain[0]}`, 'triangle-left'),
      clipLayer(x, domain[1], `datum.hi > ${domain[1]}`, 'triangle-right'),
    ],
  });
  const column = (qs: string[]) => ({ vconcat: qs.map(panel), spacing: 14 });
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: {
      text: 'Every answer: each comparison A ÷ B with its interval, by question',
      subtitle: [
        runSubtitle(an.results),
        `answers ${sourceOf(an)}`,
        `x axis, every panel: ${shared.title}`,
        `shaded: equal within ±${equalPct}% (the family's bound); ` +
          '◀ ▶ an interval beyond the axis (its label gives its size)',
      ],
    },
    data: { values: values.map((v) => ({ ...v, side: labelSide(v, domain, labelPx(v.text) / PLOT_PX) })) },
    hconcat: [column(questions.slice(0, split)), ...(split < questions.length ? [column(questions.slice(split))] : [])],
    spacing: 24,
    resolve: { scale: { y: 'independent' } },
    config,
  } as vl.TopLevelSpec;
}
