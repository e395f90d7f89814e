// Two runs compared, shown: as text (npm run compare -- A B) and as a page beside B's results
// (--html) — the machine check, the common-mode shift, and per contender the change, its
// significance and the rank intervals.
import { median } from 'simple-statistics';
import type { Comparison, Row } from '../answers/compare';
import { DECISION } from '../answers/decide';
import type { Results } from '../model/results';
import { MIN_FOR_RUN_EFFECT } from '../stats/run-effect';
import { chartDivs, escapeHtml, pageHtml } from './page';

/** How the changes were tested, in one sentence (the page and the text say the same). */
export function methodLine(c: Comparison): string {
  const what =
    c.mode === 'relative'
      ? "the relative index (each launch's mean log req/s, its runtime block's drift removed, less its runtime's reference)"
      : 'log req/s, round drift removed (--absolute)';
  const sd = `sd ${(c.prior.s0 * 100).toFixed(1)}% per launch${c.prior.trend ? " at the mean within-launch noise, following each contender's" : ''}`;
  const prior =
    c.prior.d0 === null
      ? `every contender's variance pooled (${sd})`
      : `each contender's variance shrunk toward ${sd}, worth ${c.prior.d0} df`;
  const run =
    c.runEffect.sd > 0
      ? `, plus what a run adds beyond its launches' noise (sd ${(c.runEffect.sd * 100).toFixed(1)}% per change, from the ${c.runEffect.on} dynamic contenders' changes)`
      : c.mode !== 'relative'
        ? ''
        : c.runEffect.on < MIN_FOR_RUN_EFFECT
          ? `; no run effect estimated (${c.runEffect.on} dynamic contenders, fewer than ${MIN_FOR_RUN_EFFECT})`
          : `; the ${c.runEffect.on} dynamic contenders' changes showed no run effect beyond their launches' noise`;
  return `Moderated t (empirical Bayes) on the launch means of ${what}, ${prior}${run}; Holm-corrected across all ${c.rows.length} contenders`;
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
  return `Runtime shifts, B against A (each contender's index is taken within its runtime, so these are not changes of its contenders): ${each.join(', ')}.`;
}

/**
 * The answers both runs gave: the same, different (decided in one only, or equal in one), flipped (opposite "faster").
 */
export function agreementLine(c: Comparison): string {
  const { both, same, differ, flipped } = c.answers;
  if (!both) return 'Answers: no comparison of "what to pick" is in both runs.';
  return `Answers to the ${both} comparisons both runs asked: ${same} the same, ${differ.length} differ${differ.length ? ` (${differ.join('; ')})` : ''}, ${flipped.length} flipped direction${flipped.length ? ` (${flipped.join('; ')})` : ''}.`;
}

/**
 * What the two runs could find: the change each contender would be flagged at about half the time
 * (answers/compare.ts Row.detectable), as the median over contenders and its range. No flag below
 * that is no evidence of sameness.
 */
export function detectableLine(c: Comparison): string | null {
  const d = c.rows.map((r) => r.detectable).filter((x) => Number.isFinite(x) && x > 0);
  if (!d.length) return null;
  const pct = (x: number) => `±${(x * 100).toFixed(0)}%`;
  return `What these runs could find: a change of ${pct(median(d))} in one contender is flagged about half the time (median over ${d.length} contenders; ${pct(Math.min(...d))} to ${pct(Math.max(...d))}); smaller changes mostly pass unflagged, so "~" is not "the same".${median(d) > 0.1 ? ' To see a 10% change, measure both versions side by side in one run: `npm run bench -- --against <ref or folder>` (README, "Check your own change").' : ''}`;
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

export function comparisonHtml(
  c: Comparison,
  a: { label: string; results: Results },
  b: { label: string; results: Results },
): string {
  const env = a.results.environment;
  const what = c.mode === 'relative' ? 'index' : 'req/s';
  const digits = c.mode === 'relative' ? 3 : 0;
  const rows = c.rows.map(
    (r) =>
      `<tr><td>${escapeHtml(r.name)}</td>${[r.medianA.toFixed(0), r.medianB.toFixed(0), r.a.toFixed(digits), r.b.toFixed(digits), `${signed(r.change)} (${changeInterval(r)})`, r.pHolm.toFixed(3)].map((x) => `<td class="num">${x}</td>`).join('')}<td>${r.flagged ? '<b>changed</b>' : '~'}</td></tr>`,
  );
  const notes = [
    c.tooFewRuns && `Too few runs: ${c.tooFewRuns}.`,
    detectableLine(c),
    `Rank intervals: ${c.rankChanges.length ? `changed for ${c.rankChanges.join(', ')}` : 'the same in both runs'}.`,
    agreementLine(c),
    c.notCompared.length &&
      `Not compared (missing, not ok or without runs in one of the two): ${[...new Set(c.notCompared)].join(', ')}.`,
    `${methodLine(c)}; ~ = not significant at 0.05.`,
  ].filter(Boolean) as string[];
  const shift = c.commonShift - 1;
  const body = `
<h1>A: ${escapeHtml(a.label)} against B: ${escapeHtml(b.label)}</h1>
<h2>Machine check</h2>
<p>Passed: both runs were measured on ${escapeHtml(env.cpu_model)} with ${env.logical_cpus} CPUs, with the same runtimes, Redis, oha, client and framework versions, workload and data (${a.results.data.entries} entries, ${a.results.data.body_bytes} bytes per body).</p>
<p>Common-mode shift: B's machine was ${Math.abs(shift * 100).toFixed(1)}% ${shift >= 0 ? 'faster' : 'slower'} overall (geometric mean of the ${c.shared} dynamic contenders both runs share).</p>
${shiftsLine(c) ? `<p>${escapeHtml(shiftsLine(c)!)}</p>` : ''}
<h2>Per contender</h2>
<table id="comparison"><thead><tr><th>contender</th><th class="num">req/s A</th><th class="num">req/s B</th><th class="num">${what} A</th><th class="num">${what} B</th><th class="num">change</th><th class="num">p (Holm)</th><th></th></tr></thead>
<tbody>${rows.join('\n')}</tbody></table>
${chartDivs(['chart-change'])}
<ul>${notes.map((n) => `<li>${escapeHtml(n)}</li>`).join('')}</ul>
`;
  return pageHtml({
    title: `Compare ${a.label} and ${b.label}`,
    body,
    charts: c.rows.length ? { 'chart-change': changeSpec(c) } : {},
  });
}

export function renderComparison(c: Comparison): string {
  const what = c.mode === 'relative' ? 'index' : 'req/s';
  const digits = c.mode === 'relative' ? 3 : 0;
  const head = ['contender', 'req/s A', 'req/s B', `${what} A`, `${what} B`, 'change (interval)', 'p (Holm)', ''];
  const body = c.rows.map((r) => [
    r.name,
    r.medianA.toFixed(0),
    r.medianB.toFixed(0),
    r.a.toFixed(digits),
    r.b.toFixed(digits),
    `${signed(r.change)} (${changeInterval(r)})`,
    r.pHolm.toFixed(3),
    r.flagged ? 'changed' : '~',
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((x, i) => (i === 0 ? x.padEnd(widths[i]!) : x.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  const shift = c.commonShift - 1;
  const changes = c.rows.map((r) => Math.abs(r.change));
  const out = [
    `Common-mode shift: B's machine was ${Math.abs(shift * 100).toFixed(1)}% ${shift >= 0 ? 'faster' : 'slower'} overall (geometric mean of the ${c.shared} dynamic contenders both runs share).`,
    ...(shiftsLine(c) ? [shiftsLine(c)!] : []),
    '',
    line(head),
    ...body.map(line),
    '',
    changes.length
      ? `|change| of the ${what}: median ${(median(changes) * 100).toFixed(1)}%, max ${(Math.max(...changes) * 100).toFixed(1)}%; ${c.rows.filter((r) => r.flagged).length} of ${c.rows.length} flagged as changed.`
      : 'No contender is in both runs.',
    ...(detectableLine(c) ? [detectableLine(c)!] : []),
    `Rank intervals: ${c.rankChanges.length ? `changed for ${c.rankChanges.join(', ')}` : 'the same in both runs'}.`,
    agreementLine(c),
  ];
  if (c.tooFewRuns) out.push(`Too few runs: ${c.tooFewRuns}.`);
  if (c.notCompared.length)
    out.push(
      `Not compared (missing, not ok or without runs in one of the two): ${[...new Set(c.notCompared)].join(', ')}.`,
    );
  out.push(`${methodLine(c)}; ~ = not significant at ${DECISION.alpha}.`);
  return out.join('\n');
}
