// report.html in a real browser (Debian's Chromium through playwright-core): it renders with no
// console error and no request outside file://, every chart draws, and the table sorts and filters.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { ROOT } from '../../packages/harness/src/system/paths';
import { launchChromium, openReport } from '../../packages/harness/src/report/browser';
import { writeReport } from '../../packages/harness/src/publish/files';
import { analyzeRun } from '../../packages/harness/src/publish/index';
import { forestValues } from '../../packages/harness/src/report/forest';

const FIXTURE = join(ROOT, 'tests/fixtures/results/results.json');
const fixture = JSON.parse(readFileSync(FIXTURE, 'utf8'));
let browser: Browser;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'report-'));
  cpSync(FIXTURE, join(dir, 'results.json'));
  await writeReport(dir, analyzeRun(dir));
  browser = await launchChromium();
}, 60_000);
afterAll(() => browser?.close());

/** A page that records console errors, uncaught errors and every request it makes. */
async function watched(): Promise<{ page: Page; errors: string[]; requests: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors: string[] = [];
  const requests: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('request', (r) => requests.push(r.url()));
  return { page, errors, requests };
}

const visibleRows = (page: Page) =>
  page.$$eval('#contenders tbody tr:not([hidden])', (trs) =>
    trs.map((tr) => ({
      runtime: (tr as HTMLElement).dataset.runtime!,
      rps: Number((tr as HTMLTableRowElement).cells[6]!.dataset.v),
    })),
  );

describe('report.html in Chromium', () => {
  test('one self-contained file with its screenshot beside it', () => {
    const html = readFileSync(join(dir, 'report.html'), 'utf8');
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=["']?https?:/i); // nothing loaded from elsewhere
    expect(existsSync(join(dir, 'report.png'))).toBe(true);
    expect(readFileSync(join(dir, 'report.png')).subarray(1, 4).toString()).toBe('PNG');
  });

  test('renders with no console error and no request outside file://; every chart draws', async () => {
    const { page, errors, requests } = await watched();
    const { drawn, failed } = await openReport(page, join(dir, 'report.html'));
    expect(failed).toBeNull();
    const charts = await page.$$eval('div.chart', (divs) =>
      divs.map((d) => ({
        id: d.id,
        marks: d.querySelectorAll('svg path, svg rect, svg line, svg text').length,
        canvas: d.querySelectorAll('canvas').length,
      })),
    );
    expect(charts.length).toBeGreaterThanOrEqual(6);
    expect(drawn).toBe(charts.length);
    for (const c of charts) expect(c.marks + c.canvas, c.id).toBeGreaterThan(0);
    expect(charts.map((c) => c.id)).toEqual(
      expect.arrayContaining([
        'chart-req-sec',
        'chart-heatmap',
        'chart-settings',
        'chart-breakdown',
        'chart-server-latency',
        'chart-answers',
      ]),
    );
    expect(errors).toEqual([]);
    expect(requests.filter((u) => !u.startsWith('file://'))).toEqual([]);
    await page.close();
  });

  test('by req/s the fastest row first, by rank the first rank; a runtime filter leaves that runtime', async () => {
    const { page } = await watched();
    await openReport(page, join(dir, 'report.html'));
    const header = page.locator('#contenders th', { hasText: /^req\/s$/ });
    await header.click(); // numbers sort descending first
    const rows = await visibleRows(page);
    expect(rows[0]!.rps).toBe(Math.max(...rows.map((r) => r.rps)));
    await header.click();
    expect((await visibleRows(page))[0]!.rps).toBe(Math.min(...rows.map((r) => r.rps)));

    await page.locator('#contenders th', { hasText: /^rank$/ }).click();
    // Best rank 1 first, unranked last.
    expect(await page.$eval('#contenders tbody tr td', (td) => td.textContent)).toMatch(/^1(–\d+)?$/);

    const runtimes = [
      ...new Set(fixture.contenders.filter((c: any) => !c.self_check_of).map((c: any) => c.runtime)),
    ] as string[];
    expect(runtimes.length).toBeGreaterThan(1);
    for (const runtime of runtimes) {
      await page.selectOption('select[data-filter="runtime"]', runtime);
      const shown = await visibleRows(page);
      expect(shown.length).toBe(
        fixture.contenders.filter((c: any) => !c.self_check_of && c.runtime === runtime).length,
      );
      expect(new Set(shown.map((r) => r.runtime))).toEqual(new Set([runtime]));
    }
    await page.selectOption('select[data-filter="runtime"]', '');
    expect((await visibleRows(page)).length).toBe(rows.length);
    await page.close();
  });

  test('the forest plot of every answer, under What to pick: each decided answer by its question and row', async () => {
    const { page, errors } = await watched();
    const { failed } = await openReport(page, join(dir, 'report.html'));
    expect(failed).toBeNull();
    // Right after the answers, before the contenders' table.
    const order = await page.$$eval('#pick ~ *', (els) => els.map((e) => e.id || e.getAttribute('data-section') || ''));
    expect(order.indexOf('chart-answers')).toBeGreaterThan(-1);
    expect(order.indexOf('chart-answers')).toBeLessThan(order.indexOf('contenders-section'));
    const text = (await page.textContent('#chart-answers')) ?? '';
    expect(text).toContain('shaded: equal within ±');
    const values = forestValues(analyzeRun(dir));
    const decided = values.filter((v) => v.state === 'decided');
    expect(decided.length).toBeGreaterThan(0);
    for (const v of decided) for (const part of [v.question, v.name, v.text]) expect(text).toContain(part);
    // One point per answer, decided ones in their own colour.
    const fills = await page.$$eval('#chart-answers g.mark-symbol:not(.role-legend-symbol) path', (ps) =>
      ps.map((p) => p.getAttribute('fill')),
    );
    expect(fills.length).toBe(values.length);
    expect(fills.filter((f) => f === '#1f77b4').length).toBe(decided.length);
    expect(errors).toEqual([]);
    await page.close();
  });

  test('latency: one row per stack, its name, its p50 dot, its bar to p99 and its figures, drawn', async () => {
    const { page, errors } = await watched();
    await openReport(page, join(dir, 'report.html'));
    const latency = await page.$$eval('div.chart[id$="-latency"]', (divs) => divs.map((d) => d.id));
    expect(latency).toContain('chart-server-latency');
    const an = analyzeRun(dir);
    const names = new Set(an.ranked.map((c) => c.name));
    for (const id of latency) {
      const dots = await page.$$eval(`#${id} g.mark-symbol.role-mark path`, (ps) => ps.length);
      const bars = await page.$$eval(`#${id} g.mark-rect.role-mark path`, (ps) => ps.length);
      const figures = await page.$$eval(`#${id} g.mark-text.role-mark text`, (ts) => ts.map((t) => t.textContent));
      const labels = await page.$$eval(`#${id} g.role-axis-label text`, (ts) => ts.map((t) => t.textContent));
      expect(dots, id).toBeGreaterThan(1);
      expect(bars, id).toBe(dots);
      expect(figures.length, id).toBe(dots);
      for (const f of figures) expect(f).toMatch(/^p50 [\d.,]+ · p99 [\d.,]+/);
      const named = labels.filter((l) => names.has((l ?? '').replace(/ \((static|floor: writes nothing)\)$/, '')));
      expect(named.length, id).toBe(dots);
    }
    // The static contenders (no Redis read) last in the req/s chart, in grey.
    const bars = await page.$$eval('#chart-req-sec g.mark-rect.role-mark path', (ps) =>
      ps.map((p) => p.getAttribute('fill')),
    );
    const statics = an.ranked.filter((c) => c.rps && c.static).length;
    expect(statics).toBeGreaterThan(0);
    expect(bars.slice(-statics)).toEqual(Array(statics).fill('#c8c8c8'));
    expect(bars.slice(0, -statics)).not.toContain('#c8c8c8');
    expect(errors).toEqual([]);
    await page.close();
  });

  test('each contender links its raw oha JSON, run by run', async () => {
    const { page } = await watched();
    await openReport(page, join(dir, 'report.html'));
    const first = fixture.contenders.find((c: any) => c.runs.length);
    const hrefs = await page.$$eval(`#contenders tr:has(td[data-v="${first.name}"]) a`, (as) =>
      as.map((a) => a.getAttribute('href')),
    );
    expect(hrefs).toEqual(first.runs.map((r: any) => r.raw));
    await page.close();
  });
});

describe('the compare page in Chromium', () => {
  test('--html writes a page with the machine check, every contender and its chart, drawn without errors', async () => {
    const b = mkdtempSync(join(tmpdir(), 'compare-b-'));
    const shifted = {
      ...fixture,
      contenders: fixture.contenders.map((c: any) => ({
        ...c,
        runs: c.runs.map((r: any) => ({ ...r, rps: r.rps * 1.1 })),
        points: c.points.map((p: any) => ({ ...p, runs: p.runs.map((r: any) => ({ ...r, rps: r.rps * 1.1 })) })),
      })),
    };
    writeFileSync(join(b, 'results.json'), JSON.stringify(shifted));
    const proc = Bun.spawnSync(['bun', join(ROOT, 'packages/harness/src/cli/compare.ts'), dir, b, '--html'], {
      cwd: ROOT,
    });
    expect(proc.exitCode).toBe(0);
    const page = proc.stdout.toString().match(/^comparison page: (.+)$/m)![1]!;
    const { page: p, errors, requests } = await watched();
    const { drawn, failed } = await openReport(p, page);
    expect(failed).toBeNull();
    expect(drawn).toBe(1);
    expect(await p.textContent('body')).toContain('Machine check');
    expect(await p.$$eval('#comparison tbody tr', (trs) => trs.length)).toBeGreaterThan(0);
    expect(errors).toEqual([]);
    expect(requests.filter((u) => !u.startsWith('file://'))).toEqual([]);
    await p.close();
  }, 60_000);
});

describe('an --against run in Chromium', () => {
  test('the Changes section first, its forest plot drawn: every pair named, the ±--equal band', async () => {
    const d = mkdtempSync(join(tmpdir(), 'against-'));
    cpSync(join(ROOT, 'tests/fixtures/results/against.json'), join(d, 'results.json'));
    await writeReport(d, analyzeRun(d));
    const { page, errors, requests } = await watched();
    const { drawn, failed } = await openReport(page, join(d, 'report.html'));
    expect(failed).toBeNull();
    const ids = await page.$$eval('div.chart', (divs) => divs.map((x) => x.id));
    expect(ids[0]).toBe('chart-changes');
    expect(drawn).toBe(ids.length);
    expect(await page.$eval('h2', (h) => h.id)).toBe('changes');
    expect(await page.textContent('#chart-changes')).toContain('shaded: equal within ±');
    // One point per pair in the plot, each pair named on its axis.
    const pairs = JSON.parse(readFileSync(join(d, 'results.json'), 'utf8')).changes.answers.map(
      (a: { a: string }) => a.a,
    ) as string[];
    const text = (await page.textContent('#chart-changes')) ?? '';
    for (const name of pairs) expect(text).toContain(name);
    expect(errors).toEqual([]);
    expect(requests.filter((u) => !u.startsWith('file://'))).toEqual([]);
    await page.close();
  }, 60_000);
});
