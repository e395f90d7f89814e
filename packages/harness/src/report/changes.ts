// The "Changes" section of a run with --against (or --handicap's pair): per contender, this side
// (head) against its twin from the other side (base), as the changes family decided it, and a
// forest plot of every pair's ratio with its interval and the ±--equal band.
import { levelText, MORE, runSubtitle } from './words';
import type * as vl from 'vega-lite';
import type { Analysis } from '../answers/analysis';
import type { AloneScale } from '../answers/pair-design';
import type { Answer, PairDesign, PairDesignFigures, Results } from '../model/results';
import { CHECKOUT_INPUTS } from '../model/changes';
import { handicapLine } from './answers';

const pct = (x: number) => `${(x * 100).toFixed(Math.abs(x) < 0.1 ? 1 : 0)}%`;
const signed = (ratio: number) => `${ratio >= 1 ? '+' : '−'}${pct(Math.abs(ratio - 1))}`;
const finite = (a: Answer) => Number.isFinite(a.lo) && Number.isFinite(a.hi) && a.lo > 0;

/** "NAME:PCT%": the --handicap a self-compared run was given. */
const handicapSpec = (r: Results) => `${r.settings.handicap}:${r.settings.handicap_pct ?? 10}%`;

/** Where the other side came from, in words. */
export function otherSideText(r: Results): string {
  const a = r.settings.against;
  if (!a) return '';
  if (a.kind === 'self') return `its plain twin from this checkout (\`--handicap ${handicapSpec(r)}\`)`;
  if (a.kind === 'app') return `your first version (\`--app "${a.spec}"\`)`;
  return a.kind === 'ref' ? `\`${a.spec}\` (commit ${a.commit?.slice(0, 12)})` : `the apps in \`${a.apps_dir}\``;
}

/**
 * One pair in a sentence: "head is 3.1% slower (−4.0%…−2.2%)", "equal within ±1.6%", or open with its
 * interval and `seen`, the change its test would decide about half the time (Analysis.changeSeen).
 */
export function changeSentence(
  a: Answer,
  equalPct: number,
  scale: AloneScale | null = null,
  seen: number | null = null,
): string {
  const name = a.a;
  if (a.out) return `${name}: not answered (${a.out})`;
  if (!finite(a)) return `${name}: open, too few rounds for an interval (${a.short ? `${a.short}; ` : ''}${MORE})`;
  const interval = `${signed(a.lo)}…${signed(a.hi)}, ${levelText(a.level)}, ${a.rounds} rounds`;
  // Read off duet windows that show a share `scale` of a difference alone: the same figures at their size alone.
  const alone = (x: number) => scale!.of(x);
  const at = `at the scale check's ${scale?.k.toFixed(2)}×`;
  const bound = (lo: number, hi: number) => pct(Math.max(hi - 1, 1 / lo - 1));
  if (a.verdict === 'faster')
    return (
      `${name}: **head is ${pct(Math.abs(a.ratio - 1))} ${a.ratio < 1 ? 'slower' : 'faster'}** ` +
      `than base (${interval})` +
      (scale ? `; alone about ${signed(alone(a.ratio))} (${signed(alone(a.lo))}…${signed(alone(a.hi))}), ${at}` : '')
    );
  if (a.verdict === 'equal')
    return (
      `${name}: head and base are **equal within ±${bound(a.lo, a.hi)}** ` +
      `(${signed(a.ratio)}; ${interval}; the bound asked: ±${equalPct}%${scale ? ' alone' : ''})` +
      (scale ? `; alone about ±${bound(alone(a.lo), alone(a.hi))}, ${at}` : '')
    );
  return (
    `${name}: open, ${signed(a.ratio)} (${interval}); ` +
    (seen !== null ? `a change of about ±${pct(seen)} would be seen about half the time, ` : '') +
    `and "equal" needs its interval within ±${equalPct}%${scale ? ' alone' : ''}` +
    (scale ? `; alone about ${signed(alone(a.lo))}…${signed(alone(a.hi))}, ${at}` : '')
  );
}

/**
 * One pair's line, with each side's median req/s (the base twin is in no table of the page: its "Every contender"
 * ranks the stacks of this side): "…; medians: head 887 req/s, base 877".
 */
function pairLine(an: Analysis, a: Answer): string {
  const r = an.results;
  const median = (name: string) => r.contenders?.find((c) => c.name === name)?.points[0]?.rps?.median;
  const [head, base] = [median(a.a), median(a.b)];
  const both = Number.isFinite(head) && Number.isFinite(base) && !a.out;
  const medians = both ? `; medians: head ${Math.round(head!)} req/s, base ${Math.round(base!)}` : '';
  const sentence = changeSentence(a, r.settings.against!.equal_pct, an.aloneScale, an.changeSeen.get(a.a) ?? null);
  return `- ${sentence}${medians}`;
}

/** This side (head), in words: this checkout, your app's folder as it is, or the second of two --app. */
function headText(r: Results): string {
  const apps = r.settings.apps;
  if (r.settings.against?.kind === 'app') return `your second version (\`--app "${apps?.at(-1)?.command}"\`)`;
  return apps ? "your app's folder as it is" : 'this checkout';
}

/** The section: what was compared, then one line per pair (slower and faster first, then equal, then open). */
export function changesSection(an: Analysis): string {
  const r = an.results;
  const answers = r.changes?.answers ?? [];
  if (!answers.length) return '';
  const equalPct = r.settings.against!.equal_pct;
  const order = (a: Answer) => (a.out ? 3 : a.verdict === 'faster' ? 0 : a.verdict === 'equal' ? 1 : 2);
  const sorted = [...answers].sort((x, y) => order(x) - order(y) || x.a.localeCompare(y.a));
  const n = (v: string) => answers.filter((a) => a.verdict === v && !a.out).length;
  const procedure = an.procedures[r.changes?.procedure ?? 'signed-rank'];
  const head =
    `**Changes**: ${headText(r)} (head) against ` +
    `${otherSideText(r)} (base), each pair side by side in every round; ` +
    `ratio = head ÷ base req/s. ${n('faster')} decided, ${n('equal')} equal within ±${equalPct}%, ` +
    `${n('undecided')} open, of ${answers.length}. ` +
    `Each pair is tested on its per-round ratios with ${procedure.sentence}. ` +
    (an.stepDown?.changes
      ? 'The chance of any false "faster" or "slower" over the pairs and every look is at most 5% ' +
        '(Holm across the pairs within each look, as results written by earlier versions decided them, α spent over ' +
        "the run's time)."
      : 'The chance of any false "faster", "slower" or "equal" over the pairs and every look is at most 5% ' +
        "(α/m for each pair within each look, α spent over the run's time).");
  // Without the "what to pick" section (one contender), the handicap check's line goes here.
  const check = r.answers?.length ? '' : handicapLine(an);
  return [head, inputsLine(r), sorted.map((a) => pairLine(an, a)).join('\n'), check, designLine(r)]
    .filter(Boolean)
    .join('\n\n');
}

/** What --against compares, in words: "app folder, packages/stream, …, bunfig.toml, build script". */
export const INPUTS_WORDS = [
  'app folder',
  ...CHECKOUT_INPUTS.hashed.map((p) => (p.includes('/') ? p : `root ${p}`)),
  `root ${CHECKOUT_INPUTS.install}`,
  'build script',
].join(', ');

/** Which contenders had the same inputs on both sides, and whether they were measured. */
export function inputsLine(r: Results): string {
  const i = r.changes?.inputs;
  if (!i?.unchanged.length) return '';
  const what = INPUTS_WORDS;
  const paired = r.changes!.comparisons.length;
  if (!i.measured_unchanged)
    return (
      `Only the contenders whose inputs (${what}) differ between the sides are paired. ` +
      `${i.unchanged.length} are the same on both and were not measured (\`--pair-unchanged\` measures them too): ` +
      `${i.unchanged.join(', ')}.`
    );
  if (i.unchanged.length >= paired)
    return (
      `Every contender's inputs (${what}) are the same on both sides: **this run is an A/A**, ` +
      'and any pair decided faster or slower is a false claim.'
    );
  return (
    `${i.unchanged.length} of the pairs have the same inputs (${what}) on both sides and were measured anyway ` +
    `(\`--pair-unchanged\`): for them the run is an A/A. ${i.unchanged.join(', ')}.`
  );
}

/** What one design showed: the sd of its pairs within a launch and per round, of req/s and (if measured) of CPU. */
function sdText(f: PairDesignFigures | undefined): string {
  if (!f) return 'not measured';
  const cpu =
    f.sd_pair_cpu !== undefined ? `; of CPU per request: ${sdPct(f.sd_pair_cpu)} and ${sdPct(f.sd_round_cpu)}` : '';
  const round = `${sdPct(f.sd_round)} per round (${f.pairs} pairs)`;
  return `sd ${sdPct(f.sd_pair)} per window pair within a launch, ${round}${cpu}`;
}
/** An sd as a %, or "–" where there was nothing to estimate it from (one pair a launch). */
const sdPct = (x: number | null | undefined) => (Number.isFinite(x) ? pct(x!) : '–');

/** How the pairs were measured: the design, what each design showed, and the bias check. */
export function designLine(r: Results): string {
  const d = r.changes?.design;
  if (!d) return '';
  const chosen =
    d.chosen === null
      ? 'none yet'
      : `**${d.chosen === 'duet' ? 'duet' : 'alternating'}**` +
        `${d.round !== null ? ` (chosen after round ${d.round})` : ''}: ${d.why}`;
  const b = d.bias;
  const bias = b
    ? `Bias check, over ${b.rounds} pair-rounds measured both ways: duet − alternating ${signed(Math.exp(b.mean))} ` +
      `(${signed(Math.exp(b.lo))}…${signed(Math.exp(b.hi))}, 95%): ` +
      `${b.agree ? 'they agree' : '**they disagree**; the decisions use the alternating pairs'}.`
    : '';
  return (
    `**Pair design**: ${chosen}. Alternating (each app alone, the two windows adjacent): ${sdText(d.alternate)}. ` +
    `Duet (both under load at once): ${sdText(d.duet)}. ${bias} ${scaleText(d.scale)}`
  ).trim();
}

/**
 * The scale check's line: how much of a launch's difference alone its duet showed. Below 1, a duet's ratios (and the
 * sizes and bounds read off them) are smaller than the same difference measured alone.
 */
export function scaleText(sc: PairDesign['scale']): string {
  if (!sc) return '';
  const figures = `(slope ${sc.slope.toFixed(2)}, correlation ${sc.corr.toFixed(2)})`;
  if (sc.corr < 0.5)
    return (
      `Scale check, over ${sc.rounds} rounds measured both ways: the launches varied too little beside the windows' ` +
      `own noise to tell what share of a difference alone a duet shows ${figures}.`
    );
  const shrunk =
    sc.slope < 0.9
      ? `a duet showed about ${sc.slope.toFixed(2)}× of a difference alone, so the sizes and bounds read off duet ` +
        `windows are about that share of their size alone`
      : 'a duet showed differences at about their size alone';
  return (
    `Scale check, over ${sc.rounds} rounds measured both ways: as launches came out faster or slower, ${shrunk} ` +
    `${figures}.`
  );
}

/** A pair's state in the forest plot's legend. */
const stateOf = (a: Answer) =>
  a.verdict === 'faster'
    ? a.ratio < 1
      ? 'decided: head slower'
      : 'decided: head faster'
    : a.verdict === 'equal'
      ? 'equal within the bound'
      : 'open';

/** One colour per state, the same in every run. */
const STATE_COLOURS = {
  domain: ['decided: head slower', 'decided: head faster', 'equal within the bound', 'open'],
  range: ['#c0392b', '#1f77b4', '#2e8b57', '#999999'],
};

const stateColour = () => ({
  field: 'state',
  type: 'nominal',
  title: null,
  scale: STATE_COLOURS,
  legend: { labelLimit: 300 },
});

/**
 * The pairs' layer: each interval as a rule, the ratio as a point with its text beside it, coloured (and shaped, when
 * given) by state. Without values it draws the data of the view it sits in (a facet's).
 */
/** A label beside one end of each interval, over a white halo so that a line or band under it does not hide it. */
function labelLayers(x: object, side: 'left' | 'right') {
  const at = side === 'left' ? { align: 'right', dx: -6 } : { align: 'left', dx: 6 };
  const text = (halo: boolean) => ({
    transform: [{ filter: side === 'left' ? "datum.side === 'left'" : "datum.side !== 'left'" }],
    mark: {
      type: 'text',
      baseline: 'middle',
      fontSize: 10,
      ...at,
      ...(halo ? { stroke: 'white', strokeWidth: 3, strokeJoin: 'round' } : {}),
    },
    encoding: { x: { field: side === 'left' ? 'lo' : 'hi', ...x }, text: { field: 'text' } },
  });
  return [text(true), text(false)];
}

export function pairsLayer(values: object[] | null, x: object, color: object = stateColour(), shape?: object) {
  const y = { field: 'name', type: 'nominal' as const, sort: null, title: null };
  return {
    ...(values ? { data: { values } } : {}),
    encoding: { y },
    layer: [
      {
        mark: { type: 'rule', strokeWidth: 2 },
        encoding: { x: { field: 'lo', ...x }, x2: { field: 'hi' }, color },
      },
      {
        mark: { type: 'point', filled: true, size: 60, tooltip: { content: 'data' } },
        encoding: { x: { field: 'ratio', ...x }, color, ...(shape ? { shape } : {}) },
      },
      // Beside the interval's right end, clear of the point; or, where a value's `side` says so, its left end.
      ...labelLayers(x, 'right'),
      ...labelLayers(x, 'left'),
    ],
  };
}

/**
 * The forest plot: each pair's head ÷ base ratio and interval on a log axis, the ±--equal band,
 * decided / equal / open told apart.
 */
export function changesSpec(r: Results, config: object): vl.TopLevelSpec | null {
  const answers = (r.changes?.answers ?? []).filter((a) => !a.out && finite(a));
  if (!answers.length) return null;
  const e = r.settings.against!.equal_pct / 100;
  const values = answers.map((a) => ({
    name: a.a,
    ratio: a.ratio,
    lo: a.lo,
    hi: a.hi,
    state: stateOf(a),
    text: signed(a.ratio),
  }));
  const lo = Math.min(1 / (1 + 2 * e), ...values.map((v) => v.lo)) / 1.01;
  const hi = Math.max(1 + 2 * e, ...values.map((v) => v.hi)) * 1.01;
  const x = {
    type: 'quantitative' as const,
    scale: { type: 'log' as const, domain: [lo, hi], nice: false },
    title: 'head ÷ base req/s (log scale)',
  };
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: {
      text: `Changes: head against ${otherSideText(r).replaceAll('`', '')}`,
      subtitle: [
        runSubtitle(r),
        `each pair's ratio and interval; shaded: equal within ±${r.settings.against!.equal_pct}%`,
      ],
    },
    width: 520,
    height: { step: 22 },
    layer: [
      {
        data: { values: [{ a: 1 / (1 + e), b: 1 + e }] },
        mark: { type: 'rect', color: '#d9ead3', opacity: 0.7 },
        encoding: { x: { field: 'a', ...x }, x2: { field: 'b' } },
      },
      {
        data: { values: [{ one: 1 }] },
        mark: { type: 'rule', color: '#555', strokeDash: [4, 3] },
        encoding: { x: { field: 'one', ...x } },
      },
      pairsLayer(values, x),
    ],
    config,
  } as vl.TopLevelSpec;
}

/**
 * --against (and --app with it): each pair, head (the checkout, or the app's folder as it is) against base, as decided;
 * what the terminal shows at the end of the run, as results.md does.
 */
export function againstText(an: Analysis): string {
  const r = an.results;
  const changes = r.changes?.answers ?? [];
  if (!r.settings.against || !changes.length) return '';
  const lines = changes.map((a) => pairLine(an, a));
  return (
    `**Against ${otherSideText(r)}**, side by side in every round and decided as every change is (the chance of a ` +
    `false "faster" or "slower" at most 5% at any stop; ratio = head ÷ base req/s):\n\n${lines.join('\n')}`
  );
}
