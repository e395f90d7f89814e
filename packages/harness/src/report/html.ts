// report.html of one run, from its results.json only: the environment and method, what was
// left out, a sortable and filterable table of every contender, a heatmap per runtime, and the
// Vega-Lite charts (the PNGs beside it and in the README come from the same specs).
import type { Analysis } from '../answers/analysis';
import type { ContenderResult, Results } from '../model/results';
import { scalingSpec } from './scaling';
import { type Place, sectionsOf } from './sections';
import { levelLabel } from './words';
import { charts } from './charts';
import { chartDivs, escapeHtml, markdownHtml, pageHtml } from './page';

const num = (x: number | undefined, digits = 0) => (x === undefined || !Number.isFinite(x) ? '' : x.toFixed(digits));
const settingOf = (c: ContenderResult) =>
  c.ceiling ? 'precomputed' : c.tuned?.length ? c.tuned.join(' ') : 'defaults';
const FILTERS = ['runtime', 'framework', 'client', 'setting'] as const;

/** One row of the contenders table; data-* hold the sort keys and the filter values. */
function contenderRow(c: ContenderResult, rank: string): string {
  const ci = c.rps?.ci;
  const cells: [string, string | number][] = [
    // The best rank, negated: the first click (largest first) puts rank 1 on top.
    [rank, rank ? -parseInt(rank, 10) : -1e9],
    [escapeHtml(c.name), c.name],
    [c.runtime, c.runtime],
    [c.variant ? `${c.framework} ${c.variant}` : c.framework, c.framework],
    [c.client, c.client],
    [settingOf(c), settingOf(c)],
    [num(c.rps?.median), c.rps?.median ?? -1],
    [
      !ci ? '' : c.rps!.n === 1 ? 'one run' : `${num(ci.lo)}–${num(ci.hi)} (${levelLabel(ci.level)})`,
      ci ? ci.hi - ci.lo : -1,
    ],
    [num(c.latency_ms?.p50, 1), c.latency_ms?.p50 ?? -1],
    [num(c.latency_ms?.p99, 1), c.latency_ms?.p99 ?? -1],
    [num(c.cpu_us_per_req), c.cpu_us_per_req ?? -1],
    [num(c.rss_mb), c.rss_mb ?? -1],
    [c.efficiency ? `${num(c.efficiency.value * 100, 1)}%` : '', c.efficiency?.value ?? -1],
    [
      c.ceiling ? 'HTTP ceiling' : c.status === 'ok' ? 'ok' : `<span class="bad">${escapeHtml(c.status)}</span>`,
      c.status,
    ],
    [c.runs.map((x, i) => `<a href="${escapeHtml(x.raw)}">${i + 1}</a>`).join(' '), c.runs.length],
  ];
  const data = FILTERS.map((f) => `data-${f}="${escapeHtml(f === 'setting' ? settingOf(c) : String(c[f]))}"`).join(' ');
  const td = ([html, key]: [string, string | number], i: number) =>
    `<td${NUMERIC.has(i) ? ' class="num"' : ''} data-v="${escapeHtml(String(key))}">${html}</td>`;
  return `<tr ${data}>${cells.map(td).join('')}</tr>`;
}

/** The contenders table's columns; the numeric ones sort as numbers, largest first. */
const HEADERS = [
  'rank',
  'contender',
  'runtime',
  'framework',
  'client',
  'settings',
  'req/s',
  'interval of the median',
  'p50 ms',
  'p99 ms',
  'CPU µs/req',
  'peak RSS MB',
  'efficiency',
  'status',
  'raw oha JSON',
];
const NUMERIC = new Set([0, 6, 7, 8, 9, 10, 11, 12, 14]);

/** Every contender of the run: the ranked ones in rank order, then the ceilings and those not ranked. */
function contendersTable(an: Analysis): string {
  const rank = new Map(an.ranked.map((c) => [c.name, c.rank]));
  const all = an.results.contenders.filter((c) => !c.self_check_of);
  const at = new Map(an.ranked.map((c, i) => [c.name, i]));
  const order = [...all].sort(
    (a, b) =>
      (at.get(a.name) ?? Infinity) - (at.get(b.name) ?? Infinity) || (b.rps?.median ?? 0) - (a.rps?.median ?? 0),
  );
  const select = (f: (typeof FILTERS)[number]) => {
    const values = [...new Set(all.map((c) => (f === 'setting' ? settingOf(c) : String(c[f]))))].sort();
    const options = values.map((v) => `<option>${escapeHtml(v)}</option>`).join('');
    return `<label>${f} <select data-filter="${f}"><option value="">all</option>${options}</select></label>`;
  };
  const head = HEADERS.map(
    (h, i) => `<th class="sortable${NUMERIC.has(i) ? ' num' : ''}" data-col="${i}">${h}</th>`,
  ).join('');
  return `<div class="filters">${FILTERS.map(select).join('')}<span id="shown" class="note"></span></div>
<table id="contenders"><thead><tr>${head}</tr></thead><tbody>
${order.map((c) => contenderRow(c, rank.get(c.name) ?? '')).join('\n')}
</tbody></table>`;
}

/** Sorting (click a header; numbers descending first) and filtering (every select at once). */
const TABLE_SCRIPT = `
const table = document.getElementById('contenders');
const rows = () => [...table.tBodies[0].rows];
table.querySelectorAll('th.sortable').forEach((th) => th.addEventListener('click', () => {
  const col = +th.dataset.col, numeric = th.classList.contains('num');
  const desc = numeric ? !th.classList.contains('sorted-desc') : th.classList.contains('sorted-asc');
  table.querySelectorAll('th').forEach((x) => x.classList.remove('sorted-asc', 'sorted-desc'));
  th.classList.add(desc ? 'sorted-desc' : 'sorted-asc');
  const key = (tr) => tr.cells[col].dataset.v;
  const cmp = numeric ? (a, b) => key(a) - key(b) : (a, b) => key(a).localeCompare(key(b));
  rows().sort((a, b) => (desc ? -cmp(a, b) : cmp(a, b))).forEach((tr) => table.tBodies[0].appendChild(tr));
}));
const selects = [...document.querySelectorAll('select[data-filter]')];
const applyFilters = () => {
  let shown = 0;
  for (const tr of rows()) {
    const keep = selects.every((s) => !s.value || tr.dataset[s.dataset.filter] === s.value);
    tr.hidden = !keep;
    shown += keep ? 1 : 0;
  }
  document.getElementById('shown').textContent = shown + ' of ' + rows().length + ' shown';
};
selects.forEach((s) => s.addEventListener('change', applyFilters));
applyFilters();
`;

/** Per runtime, framework × client: median req/s of the default-settings contenders, as colour. */
function heatmapSpec(an: Analysis): object | null {
  const values = an.ranked
    .filter((c) => !c.tuned?.length)
    .map((c) => ({
      runtime: c.runtime,
      framework: c.variant ? `${c.framework} ${c.variant}` : c.framework,
      client: c.client,
      rps: Math.round(c.rps!.median),
      rank: c.rank,
      label: `${Math.round(c.rps!.median)} (${c.rank})`,
    }));
  if (!values.length) return null;
  const grid = (runtime: string) => ({
    title: runtime,
    transform: [{ filter: { field: 'runtime', equal: runtime } }],
    width: { step: 90 },
    height: { step: 24 },
    encoding: {
      x: { field: 'client', type: 'nominal', title: null, axis: { orient: 'top', labelAngle: 0 } },
      y: { field: 'framework', type: 'nominal', title: null },
    },
    layer: [
      {
        mark: 'rect',
        encoding: {
          color: { field: 'rps', type: 'quantitative', title: 'req/s', scale: { scheme: 'blues' } },
          tooltip: [{ field: 'framework' }, { field: 'client' }, { field: 'rps', title: 'req/s' }, { field: 'rank' }],
        },
      },
      { mark: { type: 'text', fontSize: 11 }, encoding: { text: { field: 'label', type: 'nominal' } } },
    ],
  });
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: {
      text: 'Framework × client per runtime: median req/s with default settings (rank interval in brackets)',
      anchor: 'start',
    },
    data: { values },
    vconcat: [...new Set(values.map((v) => v.runtime))].map(grid),
    resolve: { scale: { color: 'shared' } },
  };
}

/** Each setting's on ÷ off ratio with its interval; 1 = no effect. */
function settingsSpec(an: Analysis): object | null {
  // An interval too wide to exist (too few pairs) draws as its estimate alone.
  const values = an.answers
    .filter((a) => a.question.startsWith('setting: '))
    .map((a) => {
      const finite = Number.isFinite(a.hi) && a.lo > 0;
      const tuned = an.results.contenders.find((c) => c.name === a.a)?.tuned?.[0] ?? a.a;
      return { label: a.a, setting: tuned, median: a.ratio, lo: finite ? a.lo : a.ratio, hi: finite ? a.hi : a.ratio };
    });
  if (!values.length) return null;
  const y = { field: 'label', type: 'nominal', sort: null, title: null };
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: {
      text: 'Settings: req/s with the setting on ÷ off, per stack (whiskers: interval; 1 = no effect)',
      anchor: 'start',
    },
    width: 560,
    data: { values },
    layer: [
      {
        mark: { type: 'point', filled: true },
        encoding: {
          y,
          x: { field: 'median', type: 'quantitative', title: 'on ÷ off', scale: { zero: false } },
          color: { field: 'setting', type: 'nominal' },
          tooltip: [
            { field: 'label' },
            { field: 'median', format: '.2f' },
            { field: 'lo', format: '.2f' },
            { field: 'hi', format: '.2f' },
          ],
        },
      },
      {
        mark: 'rule',
        encoding: {
          y,
          x: { field: 'lo', type: 'quantitative' },
          x2: { field: 'hi' },
          color: { field: 'setting', type: 'nominal' },
        },
      },
      { mark: { type: 'rule', strokeDash: [4, 4], color: '#555' }, encoding: { x: { datum: 1 } } },
    ],
  };
}

/** The concurrency sweep and open-loop points, where more than one point per contender was measured. */
function pointsSpec(r: Results): object | null {
  const values = r.contenders
    .filter((c) => c.points.length > 1 && !c.self_check_of)
    .flatMap((c) =>
      c.points
        .filter((p) => p.rps)
        .map((p) => ({
          name: c.name,
          load: p.rate === null ? `c=${p.connections}` : `${p.rate_spec ?? p.rate} offered`,
          rps: p.rps!.median,
          p99: p.latency_ms?.p99 ?? null,
        })),
    );
  if (!values.length) return null;
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: { text: 'Concurrency sweep and open-loop points: p99 latency against req/s', anchor: 'start' },
    width: 560,
    height: 320,
    data: { values },
    mark: { type: 'line', point: true, tooltip: true },
    encoding: {
      x: { field: 'rps', type: 'quantitative', title: 'req/s (median)' },
      y: { field: 'p99', type: 'quantitative', title: 'p99 latency (ms)', scale: { type: 'log' } },
      color: { field: 'name', type: 'nominal', title: null, legend: { orient: 'bottom', columns: 2, labelLimit: 400 } },
    },
  };
}

/** Every chart of the page by element id: the PNG charts' specs first, then the page's own. */
function reportCharts(an: Analysis): Record<string, object> {
  const r = an.results;
  const out: Record<string, object> = {};
  for (const [file, spec] of Object.entries(charts(an))) out[`chart-${file.replace('.png', '')}`] = spec;
  const extra = {
    'chart-heatmap': heatmapSpec(an),
    'chart-settings': settingsSpec(an),
    'chart-points': pointsSpec(r),
    'chart-scaling': r.scaling ? scalingSpec(r.scaling) : null,
  };
  for (const [id, spec] of Object.entries(extra)) if (spec) out[id] = spec;
  return out;
}

function environmentTable(r: Results): string {
  const e = r.environment as unknown as Record<string, unknown>;
  const rows = Object.entries(e)
    .filter(([, v]) => v !== null && typeof v !== 'object')
    .map(([k, v]) => `<tr><th>${escapeHtml(k)}</th><td>${escapeHtml(String(v))}</td></tr>`);
  const runtimes = Object.entries((e.runtimes ?? {}) as Record<string, string>).map(
    ([k, v]) => `<tr><th>runtime ${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`,
  );
  return `<table>${[...rows, ...runtimes].join('')}</table>`;
}

function leftOut(an: Analysis): string {
  const unsupported = (an.results.unsupported ?? [])
    .map((u) => `<li>${escapeHtml(u.name)}: ${escapeHtml(u.reason)}</li>`)
    .join('');
  const notRanked = sectionsOf(an, (s) => s.place === 'left-out', false);
  const gates = notRanked.length
    ? notRanked.map((s) => `<div data-section="${s.id}">\n${markdownHtml(s.md)}\n</div>`).join('\n')
    : '<p>Every contender measured passed every gate.</p>';
  return [gates, unsupported && `<p>Not measured (unsupported):</p><ul>${unsupported}</ul>`].filter(Boolean).join('\n');
}

/** The page's links to its parts (the changes only when the run has them) and to the run's files. */
function navHtml(r: Results): string {
  const links = [
    ...(r.changes ? [['#changes', 'changes']] : []),
    ['#pick', 'what to pick'],
    ['#contenders-section', 'contenders'],
    ['#charts', 'charts'],
    ['#tables', 'tables'],
    ['#left-out', 'left out'],
    ['#method', 'method'],
    ['results.json', 'results.json'],
    ['results.md', 'results.md'],
  ];
  return `<nav>${links.map(([href, text]) => `<a href="${href}">${text}</a>`).join('')}</nav>`;
}

export function reportHtml(an: Analysis): string {
  const r = an.results;
  const chartsById = reportCharts(an);
  const ids = Object.keys(chartsById);
  const shown = sectionsOf(an);
  // Each section in a div named after it (data-section), so a test can find every one.
  const at = (place: Place) =>
    shown
      .filter((s) => s.place === place)
      .map((s) => `<div data-section="${s.id}">\n${markdownHtml(s.md)}\n</div>`)
      .join('\n');
  const title = `Redis stream → JSON benchmark: ${r.started_at}`;
  const againstOnly = r.changes && !r.family?.comparisons.length;
  const state = r.complete ? 'A complete run.' : `Not complete: ${escapeHtml(r.exit_reason ?? 'stopped early')}.`;
  const changes = r.changes
    ? `<h2 id="changes">Changes</h2>\n${at('changes') || '<p class="note">No pair measured.</p>'}\n` +
      chartDivs(ids.filter((id) => id === 'chart-changes'))
    : '';
  const noPick = againstOnly ? 'An --against run answers the changes only.' : 'Too few contenders for a summary.';
  const body = [
    '',
    `<h1>${escapeHtml(title)}</h1>`,
    navHtml(r),
    `<p class="${r.complete ? 'note' : 'bad'}">${state}</p>`,
    changes,
    '<h2 id="pick">What to pick</h2>',
    at('pick') || `<p class="note">${noPick}</p>`,
    chartDivs(ids.filter((id) => id === 'chart-answers')),
    '<h2 id="contenders-section">Every contender</h2>',
    '<p class="note">Click a header to sort; pick values to filter. ' +
      'Rank: the best and worst rank consistent with the decided comparisons ("2–5").</p>',
    '<div data-section="contenders">',
    contendersTable(an),
    '</div>',
    '<h2 id="charts">Charts</h2>',
    chartDivs(ids.filter((id) => id !== 'chart-changes' && id !== 'chart-answers')),
    '<h2 id="tables">Tables</h2>',
    at('tables'),
    '<h2 id="left-out">Left out, and why</h2>',
    leftOut(an),
    '<h2 id="method">Method and environment</h2>',
    at('method'),
    environmentTable(r),
    '',
  ].join('\n');
  return pageHtml({ title, body, charts: chartsById, script: TABLE_SCRIPT });
}
