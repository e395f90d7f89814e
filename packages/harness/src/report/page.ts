// The shell of every HTML page the project writes (report.html, the compare page): one file
// that works offline. Vega, Vega-Lite and vega-embed come from node_modules (pinned in the
// lockfile) and are inlined, as are the styles, the data and the charts' specs.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { marked } from 'marked';
import { ROOT } from '../system/paths';

const VENDORED = ['vega/build/vega.min.js', 'vega-lite/build/vega-lite.min.js', 'vega-embed/build/vega-embed.min.js'];

function vendored(file: string): string {
  const path = join(ROOT, 'node_modules', file);
  if (!existsSync(path))
    throw new Error(`${path} is missing: run 'bun install' (npm run bench does it) before writing report.html`);
  return readFileSync(path, 'utf8');
}

/** Text inside <script>: never ends the element early. */
const scriptSafe = (js: string) => js.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');
/** JSON inside <script type="application/json">. */
const jsonScript = (id: string, value: unknown) =>
  `<script type="application/json" id="${id}">${JSON.stringify(value).replace(/</g, '\\u003c')}</script>`;

export const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The project's markdown tables and notes, as HTML. */
export const markdownHtml = (md: string) => (md ? (marked.parse(md, { async: false }) as string) : '');

const STYLE = [
  '',
  'body { font: 14px/1.45 system-ui, sans-serif; margin: 0 auto; max-width: 1200px; ' +
    'padding: 0 16px 48px; color: #1d1d1f; }',
  'h1 { font-size: 22px; } h2 { font-size: 18px; margin-top: 32px; border-bottom: 1px solid #ddd; }',
  'table { border-collapse: collapse; margin: 8px 0; font-variant-numeric: tabular-nums; }',
  'th, td { border-bottom: 1px solid #e5e5e5; padding: 3px 8px; text-align: left; vertical-align: top; }',
  'th { background: #f6f6f6; position: sticky; top: 0; }',
  "th.sortable { cursor: pointer; user-select: none; } th.sorted-desc::after { content: ' ▼'; } " +
    "th.sorted-asc::after { content: ' ▲'; }",
  'td.num, th.num { text-align: right; }',
  '.filters { display: flex; gap: 12px; flex-wrap: wrap; align-items: center; margin: 8px 0; }',
  '.chart { margin: 16px 0; overflow-x: auto; }',
  '.note { color: #555; } .bad { color: #b00020; }',
  'nav a { margin-right: 12px; }',
  '',
].join('\n');

/** Draws every chart whose spec is in #charts into the element of the same id; marks the page when all are drawn. */
const DRAW = `
const specs = JSON.parse(document.getElementById('chart-specs').textContent);
Promise.all(Object.entries(specs).map(([id, spec]) =>
  vegaEmbed('#' + id, spec, { actions: false, renderer: 'svg' })))
  .then(() => { document.body.dataset.chartsDrawn = String(Object.keys(specs).length); })
  .catch((e) => { document.body.dataset.chartsFailed = String(e); console.error(e); });
`;

export interface Page {
  title: string;
  body: string;
  /** Vega-Lite specs by element id: each is drawn into <div id=...>. */
  charts: Record<string, object>;
  /** Page-specific script, run after the charts are requested. */
  script?: string;
}

export function pageHtml(p: Page): string {
  const libs = VENDORED.map((f) => `<script>${scriptSafe(vendored(f))}</script>`).join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(p.title)}</title><style>${STYLE}</style>
${libs}
</head><body>
${p.body}
${jsonScript('chart-specs', p.charts)}
<script>${scriptSafe(DRAW)}${scriptSafe(p.script ?? '')}</script>
</body></html>
`;
}

export const chartDivs = (ids: string[]) => ids.map((id) => `<div class="chart" id="${id}"></div>`).join('\n');
