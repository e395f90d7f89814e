// A report's files on disk (publish/files.ts): the answers written before any chart is drawn, so a chart that fails
// leaves results.md and report.html; a screenshot that fails leaves no older report.png beside the new page.
import { afterAll, describe, expect, mock, test } from 'bun:test';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as browser from '../../packages/harness/src/report/browser';
import * as render from '../../packages/harness/src/report/render';
import { analyze } from '../../packages/harness/src/answers/analysis';
import { readResults } from '../../packages/harness/src/model/results-file';
import { writeFiles, writeReport } from '../../packages/harness/src/publish/files';
import { ROOT } from '../../packages/harness/src/system/paths';

// The drawing and the browser fail only while a test asks them to; otherwise they are the real ones.
const fail = { chart: false, shot: false };
// Taken before the mocks: a mocked module's namespace object then holds the mocks.
const [realRender, realShot] = [render.renderPng, browser.screenshotReport];
mock.module('../../packages/harness/src/report/render', () => ({
  ...render,
  renderPng: async (spec: Parameters<typeof render.renderPng>[0]) => {
    if (fail.chart) throw new Error('simulated: a chart failed to draw');
    return realRender(spec);
  },
}));
mock.module('../../packages/harness/src/report/browser', () => ({
  ...browser,
  screenshotReport: async (html: string) => {
    if (fail.shot) throw new Error('simulated: no screenshot');
    return realShot(html);
  },
}));

const dir = mkdtempSync(join(tmpdir(), 'report-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const an = analyze(readResults(join(ROOT, 'tests/fixtures/results/results.json')));

describe("a report's files", () => {
  test('a chart that fails to draw leaves results.md and report.html written', async () => {
    fail.chart = true;
    try {
      await expect(writeReport(dir, an, 'full')).rejects.toThrow('a chart failed to draw');
    } finally {
      fail.chart = false;
    }
    expect(existsSync(join(dir, 'results.md'))).toBe(true);
    expect(existsSync(join(dir, 'report.html'))).toBe(true);
  });

  test('a screenshot that fails removes an older report.png; the charts are written', async () => {
    writeFileSync(join(dir, 'report.png'), 'an older page');
    fail.shot = true;
    try {
      await writeReport(dir, an, 'full');
    } finally {
      fail.shot = false;
    }
    expect(existsSync(join(dir, 'report.png'))).toBe(false);
    expect(readdirSync(dir).filter((f) => f.endsWith('.png')).length).toBeGreaterThan(0);
  }, 60_000);

  test('a text report draws no chart: results.md and report.html alone', async () => {
    const text = mkdtempSync(join(tmpdir(), 'report-text-'));
    // A chart drawn would fail the report: none is drawn.
    fail.chart = true;
    try {
      await expect(writeReport(text, an, 'text')).resolves.toBeUndefined();
    } finally {
      fail.chart = false;
    }
    expect(readdirSync(text).sort()).toEqual(['report.html', 'results.md']);
    rmSync(text, { recursive: true, force: true });
  });

  test('each file is written whole, through a temporary name: none is left behind', () => {
    expect(writeFiles(dir, { 'a.json': '{}\n', 'b.md': 'b\n' })).toEqual(['a.json', 'b.md']);
    expect(readdirSync(dir).filter((f) => f.includes('.tmp-'))).toEqual([]);
    // A folder where the file goes: one line naming it, and no temporary file left beside it.
    mkdirSync(join(dir, 'c.md'));
    expect(() => writeFiles(dir, { 'c.md': 'c\n' })).toThrow(`${join(dir, 'c.md')} could not be written: `);
    expect(readdirSync(dir).filter((f) => f.includes('.tmp-'))).toEqual([]);
  });
});
