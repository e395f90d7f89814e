// Two runs compared, shown: as text (npm run compare -- A B) and as a page beside B's results
// (--html) — the machine check, the common-mode shift, and per contender the change, its
// significance and the rank intervals.
import type { Comparison, Row } from '../answers/compare';
import type { Results } from '../model/results';
import { chartDivs, escapeHtml, pageHtml } from './page';

/** What a run adds beyond its launches' noise, or why none was estimated. */
function runEffectText(c: Comparison): string {
  const { sd, on } = c.runEffect;
  if (sd > 0)
    return (
      `, plus what a run adds beyond its launches' noise (sd ${(sd * 100).toFixed(1)}% per change, ` +
      `from the ${on} dynamic contenders' changes)`
    );
  if (c.mode !== 'relative') return '';
  return on < c.runEffect.min
    ? `; no run effect estimated (${on} dynamic contenders, fewer than ${c.runEffect.min})`
    : `; the ${on} dynamic contenders' changes showed no run effect beyond their launches' noise`;
}

/** How the changes were tested, in one sentence (the page and the text say the same). */
export function methodLine(c: Comparison): string {
  const what =
    c.mode === 'relative'
      ? "the relative index (each launch's mean log req/s, its runtime block's drift removed, " +
        "less its runtime's reference)"
      : 'log req/s, round drift removed (--absolute)';
  const trend = c.prior.trend ? " at the mean within-launch noise, following each contender's" : '';
  const sd = `sd ${(c.prior.s0 * 100).toFixed(1)}% per launch${trend}`;
  // One contender (or too few to fit a prior to): its own variance alone, with no scale to shrink toward.
  const prior =
    c.prior.d0 === 0 || !Number.isFinite(c.prior.s0)
      ? "each contender's own variance (too few contenders to fit a prior)"
      : c.prior.d0 === null
        ? `every contender's variance pooled (${sd})`
        : `each contender's variance shrunk toward ${sd}, worth ${c.prior.d0} df`;
  return (
    `Moderated t (empirical Bayes) on the launch means of ${what}, ${prior}${runEffectText(c)}; ` +
    `Holm-corrected across all ${c.rows.length} contenders`
  );
}

/**
 * Each runtime's own shift, when indices are taken within runtimes: a move of a whole runtime is not a change of its
 * contenders.
 */
export function shiftsLine(c: Comparison): string | null {
  const own = c.shifts.filter((x) => x.group !== '*');
  if (c.mode !== 'relative' || !own.length) return null;
  const each = c.shifts.map(
    (x) => `${x.group === '*' ? 'the rest' : x.group} ${signed(x.shift - 1)} (${x.shared} dynamic)`,
  );
  return (
    "Runtime shifts, B against A (each contender's index is taken within its runtime, " +
    `so these are not changes of its contenders): ${each.join(', ')}.`
  );
}

/**
 * The answers both runs gave: the same, different (decided in one only, or equal in one), flipped (opposite "faster").
 */
export function agreementLine(c: Comparison): string {
  const { both, same, differ, flipped } = c.answers;
  if (!both) return 'Answers: no comparison of "what to pick" is in both runs.';
  const which = (xs: string[]) => (xs.length ? ` (${xs.join('; ')})` : '');
  return (
    `Answers to the ${both} comparisons both runs asked: ${same} the same, ` +
    `${differ.length} differ${which(differ)}, ${flipped.length} flipped direction${which(flipped)}.`
  );
}

/**
 * What the two runs could find: the change each contender would be flagged at about half the time
 * (answers/compare.ts Row.detectable), as the median over contenders and its range. No flag below
 * that is no evidence of sameness.
 */
export function detectableLine(c: Comparison): string | null {
  const d = c.detectable;
  if (!d) return null;
  const pct = (x: number) => `±${(x * 100).toFixed(0)}%`;
  const advice =
    d.median > 0.1
      ? ' To see a 10% change, measure both versions side by side in one run: ' +
        '`npm run bench -- --against <ref or folder>` (README, "Check your own change").'
      : '';
  return (
    `What these runs could find: a change of ${pct(d.median)} in one contender is flagged about half the time ` +
    `(median over ${d.n} contenders; ${pct(d.min)} to ${pct(d.max)}); ` +
    `smaller changes mostly pass unflagged, so "~" is not "the same".${advice}`
  );
}

const signed = (x: number, digits = 1) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(digits)}%`;

/** "−3%…+8%", or why there is none (too few launches on a side, and no variance to borrow). */
export const changeInterval = (r: Pick<Row, 'lo' | 'hi'>) =>
  Number.isFinite(r.hi) && r.lo > -1 ? `${signed(r.lo, 0)}…${signed(r.hi, 0)}` : 'no interval: too few launches';

function changeSpec(c: Comparison): object {
  const values = c.rows.map((r) => ({
    name: r.name,
    change: r.change,
    verdict: r.flagged ? 'changed (Holm p < 0.05)' : 'not significant',
    p: r.pHolm,
  }));
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: {
      text: `Change from A to B of each contender's ${c.mode === 'relative' ? 'relative index' : 'req/s'}`,
      anchor: 'start',
    },
    width: 560,
    data: { values },
    mark: { type: 'bar', tooltip: true },
    encoding: {
      y: { field: 'name', type: 'nominal', sort: '-x', title: null },
      x: { field: 'change', type: 'quantitative', axis: { format: '+.0%' }, title: 'B ÷ A − 1' },
      color: {
        field: 'verdict',
        type: 'nominal',
        title: null,
        scale: { domain: ['changed (Holm p < 0.05)', 'not significant'], range: ['#d62728', '#9e9e9e'] },
      },
    },
  };
}

/** "B's req/s were 1.2% higher": the common-mode shift as a figure, which no test stands behind. */
function shiftText(c: Comparison): string {
  const shift = c.commonShift - 1;
  return (
    `Common-mode shift: B's req/s were ${Math.abs(shift * 100).toFixed(1)}% ${shift >= 0 ? 'higher' : 'lower'} ` +
    `than A's (geometric mean of the ${c.shared} dynamic contenders both runs share; a figure, not a tested ` +
    'difference between the machines).'
  );
}

const rankText = (c: Comparison) =>
  c.rankChanges === null
    ? 'Rank intervals: not compared, the two runs ranked different contenders.'
    : `Rank intervals: ${c.rankChanges.length ? `changed for ${c.rankChanges.join(', ')}` : 'the same in both runs'}.`;

const notComparedText = (c: Comparison) =>
  `Not compared (missing, not ok or without runs in one of the two): ${[...new Set(c.notCompared)].join(', ')}.`;

/** One row's figures after its name: the medians, the compared values, the change and its p. */
function rowCells(c: Comparison, r: Row): string[] {
  const digits = c.mode === 'relative' ? 3 : 0;
  return [
    r.medianA.toFixed(0),
    r.medianB.toFixed(0),
    r.a.toFixed(digits),
    r.b.toFixed(digits),
    `${signed(r.change)} (${changeInterval(r)})`,
    r.pHolm.toFixed(3),
  ];
}

export function comparisonHtml(
  c: Comparison,
  a: { label: string; results: Results },
  b: { label: string; results: Results },
): string {
  const env = a.results.environment;
  // --absolute: the launches' geometric mean req/s (round drift removed), beside the medians.
  const what = c.mode === 'relative' ? 'index' : 'mean';
  const rows = c.rows.map(
    (r) =>
      `<tr><td>${escapeHtml(r.name)}</td>${rowCells(c, r)
        .map((x) => `<td class="num">${x}</td>`)
        .join('')}<td>${r.flagged ? '<b>changed</b>' : '~'}</td></tr>`,
  );
  const notes = [
    c.tooFewRuns && `Too few runs: ${c.tooFewRuns}.`,
    detectableLine(c),
    rankText(c),
    agreementLine(c),
    c.notCompared.length && notComparedText(c),
    `${methodLine(c)}; ~ = not significant at ${c.alpha}.`,
  ].filter(Boolean) as string[];
  const heads = ['req/s A', 'req/s B', `${what} A`, `${what} B`, 'change', 'p (Holm)'];
  const body = [
    '',
    `<h1>A: ${escapeHtml(a.label)} against B: ${escapeHtml(b.label)}</h1>`,
    '<h2>Machine check</h2>',
    `<p>Passed: both runs were measured on ${escapeHtml(env.cpu_model)} with ${env.logical_cpus} CPUs, ` +
      'with the same runtimes, Redis, oha, client and framework versions, workload and data ' +
      `(${a.results.data.entries} entries, ${a.results.data.body_bytes} bytes per body).</p>`,
    `<p>${shiftText(c)}</p>`,
    shiftsLine(c) ? `<p>${escapeHtml(shiftsLine(c)!)}</p>` : '',
    '<h2>Per contender</h2>',
    `<table id="comparison"><thead><tr><th>contender</th>${heads.map((h) => `<th class="num">${h}</th>`).join('')}` +
      '<th></th></tr></thead>',
    `<tbody>${rows.join('\n')}</tbody></table>`,
    chartDivs(['chart-change']),
    `<ul>${notes.map((n) => `<li>${escapeHtml(n)}</li>`).join('')}</ul>`,
    '',
  ].join('\n');
  return pageHtml({
    title: `Compare ${a.label} and ${b.label}`,
    body,
    charts: c.rows.length ? { 'chart-change': changeSpec(c) } : {},
  });
}

export function renderComparison(c: Comparison): string {
  // --absolute: the launches' geometric mean req/s (round drift removed), beside the medians.
  const what = c.mode === 'relative' ? 'index' : 'mean';
  const head = ['contender', 'req/s A', 'req/s B', `${what} A`, `${what} B`, 'change (interval)', 'p (Holm)', ''];
  const body = c.rows.map((r) => [r.name, ...rowCells(c, r), r.flagged ? 'changed' : '~']);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((x, i) => (i === 0 ? x.padEnd(widths[i]!) : x.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  const size = c.changeSize;
  const flagged = c.rows.filter((r) => r.flagged).length;
  const out = [
    shiftText(c),
    ...(shiftsLine(c) ? [shiftsLine(c)!] : []),
    '',
    line(head),
    ...body.map(line),
    '',
    size
      ? `|change| of the ${what}: median ${(size.median * 100).toFixed(1)}%, max ${(size.max * 100).toFixed(1)}%; ` +
        `${flagged} of ${c.rows.length} flagged as changed.`
      : 'No contender is in both runs.',
    ...(detectableLine(c) ? [detectableLine(c)!] : []),
    rankText(c),
    agreementLine(c),
  ];
  if (c.tooFewRuns) out.push(`Too few runs: ${c.tooFewRuns}.`);
  if (c.notCompared.length) out.push(notComparedText(c));
  out.push(`${methodLine(c)}; ~ = not significant at ${c.alpha}.`);
  return out.join('\n');
}
