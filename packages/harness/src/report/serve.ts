// npm run report -- --serve: the results folder over HTTP on 127.0.0.1 only, with an index of past
// runs. A run without report.html gets one made from its results.json on request (nothing written).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, resolve, sep } from 'node:path';
import type { Analysis } from '../answers/analysis';
import type { Results } from '../model/results';
import { readResults, resultsFile } from '../model/results-file';
import { reportHtml } from './html';
import { escapeHtml } from './page';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json',
  '.png': 'image/png',
  '.md': 'text/markdown; charset=utf-8',
};

interface RunEntry {
  dir: string;
  results: Results | null;
}

function runsIn(root: string): RunEntry[] {
  const dirs = existsSync(root) ? readdirSync(root).filter((d) => existsSync(resultsFile(join(root, d)))) : [];
  const read = (d: string) => {
    try {
      return readResults(resultsFile(join(root, d)));
    } catch {
      return null;
    }
  };
  return dirs
    .sort()
    .reverse()
    .map((dir) => ({ dir, results: read(dir) }));
}

const INDEX_STYLE =
  'body{font:14px system-ui,sans-serif;margin:24px}' +
  'td,th{padding:3px 10px;border-bottom:1px solid #ddd;text-align:left}';

function indexHtml(root: string): string {
  const rows = runsIn(root).map(({ dir, results: r }) => {
    const link = `<a href="${encodeURI(dir)}/report.html">${escapeHtml(dir)}</a>`;
    if (!r) return `<tr><td>${link}</td><td colspan="5">results.json unreadable</td></tr>`;
    const ok = r.contenders.filter((c) => c.status === 'ok').length;
    const cells = [
      r.started_at,
      r.settings.suite ?? 'default',
      `${ok} ok of ${r.contenders.length}`,
      r.complete ? 'complete' : `not complete: ${r.exit_reason ?? ''}`,
      `${r.environment.cpu_model}, ${r.environment.logical_cpus} CPUs`,
    ];
    return `<tr><td>${link}</td>${cells.map((c) => `<td>${escapeHtml(String(c))}</td>`).join('')}</tr>`;
  });
  const heads = ['run', 'started', 'suite', 'contenders', 'state', 'machine'].map((h) => `<th>${h}</th>`).join('');
  return [
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Benchmark runs</title>',
    `<style>${INDEX_STYLE}</style></head>`,
    `<body><h1>Benchmark runs in ${escapeHtml(root)}</h1>`,
    `<table><thead><tr>${heads}</tr></thead><tbody>${rows.join('\n')}</tbody></table></body></html>`,
  ].join('\n');
}

/** Makes a run's analysis from its results (the caller's analyze: report/ computes nothing). */
type Analyze = (r: Results) => Analysis;

function respond(root: string, pathname: string, analyze: Analyze): Response {
  if (pathname === '/') return new Response(indexHtml(root), { headers: { 'content-type': TYPES['.html']! } });
  const file = resolve(root, `.${decodeURIComponent(pathname)}`);
  if (!file.startsWith(root + sep)) return new Response('outside the results folder', { status: 403 });
  if (file.endsWith(`${sep}report.html`) && !existsSync(file) && existsSync(resultsFile(resolve(file, '..')))) {
    return new Response(reportHtml(analyze(readResults(resultsFile(resolve(file, '..'))))), {
      headers: { 'content-type': TYPES['.html']! },
    });
  }
  if (!existsSync(file) || !statSync(file).isFile()) return new Response('not found', { status: 404 });
  return new Response(readFileSync(file), {
    headers: { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' },
  });
}

/** Serves `root` on 127.0.0.1:`port` (0: a free port); a missing report.html is rendered from `analyze`'s analysis. */
export function serveResults(root: string, port: number, analyze: Analyze) {
  return Bun.serve({ hostname: '127.0.0.1', port, fetch: (req) => respond(root, new URL(req.url).pathname, analyze) });
}
