// npm run report: --open prints report.html's path; --serve serves a results folder on 127.0.0.1 with an index of its
// runs.
import { describe, expect, test } from 'bun:test';
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../../packages/harness/src/system/paths';

const CLI = join(ROOT, 'packages/harness/src/cli/report.ts');
const FIXTURE = join(ROOT, 'tests/fixtures/results/results.json');

function resultsFolder(runs: string[]): string {
  const root = mkdtempSync(join(tmpdir(), 'served-results-'));
  for (const run of runs) {
    mkdirSync(join(root, run));
    cpSync(FIXTURE, join(root, run, 'results.json'));
  }
  return root;
}

describe('npm run report', () => {
  test('--open DIR (or its results.json) writes report.html if it is missing and prints its path', async () => {
    const root = resultsFolder(['2026-01-01T00-00-00-000']);
    const run = join(root, '2026-01-01T00-00-00-000');
    const proc = Bun.spawnSync(['bun', CLI, '--open', run], { cwd: ROOT });
    expect(proc.exitCode).toBe(0);
    expect(proc.stdout.toString().trim()).toBe(join(run, 'report.html'));
    expect(existsSync(join(run, 'report.html'))).toBe(true);
    // Its results.json named in place of its folder, as npm run compare takes it: the same run.
    const file = Bun.spawnSync(['bun', CLI, '--open', join(run, 'results.json')], { cwd: ROOT });
    expect([file.exitCode, file.stdout.toString().trim()]).toEqual([0, join(run, 'report.html')]);
    const missing = Bun.spawnSync(['bun', CLI, '--open', join(root, 'nope')], { cwd: ROOT });
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr.toString()).toMatch(
      /^error: no results\.json in .*nope: give a results\/<timestamp> directory of a run\n$/,
    );
    // A results.json that is JSON but no run's, and --serve of a folder that is not there: one line each, exit ≠ 0.
    writeFileSync(join(run, 'results.json'), 'null');
    const notRun = Bun.spawnSync(['bun', CLI, run], { cwd: ROOT });
    expect(notRun.exitCode).toBe(1);
    expect(notRun.stderr.toString()).toMatch(/^error: .*results\.json is not a results\.json of npm run bench.*\n$/);
    const noDir = Bun.spawnSync(['bun', CLI, '--serve', '--dir', join(root, 'nope')], { cwd: ROOT, timeout: 20_000 });
    expect(noDir.exitCode).toBe(2);
    expect(noDir.stderr.toString()).toMatch(
      /^error: --dir .*nope is not a folder: give the folder that holds the runs/,
    );
    // npm run compare on a run that is not there: one line naming what to give.
    const compareCli = join(ROOT, 'packages/harness/src/cli/compare.ts');
    const oneRun = Bun.spawnSync(['bun', compareCli, run, '--htm'], { cwd: ROOT });
    expect([oneRun.exitCode, oneRun.stderr.toString()]).toEqual([
      2,
      expect.stringMatching(/^error: unknown flag --htm; usage/),
    ]);
    const noRun = Bun.spawnSync(['bun', compareCli, join(root, 'nope'), run], { cwd: ROOT });
    expect(noRun.exitCode).toBe(2);
    expect(noRun.stderr.toString()).toMatch(
      /^error: .*nope does not exist: name a run's folder \(for example results\/latest\) or its results\.json\n$/,
    );
  }, 60_000);

  test('--serve: 127.0.0.1 only, an index of runs, each report made on request, nothing outside', async () => {
    const root = resultsFolder(['2026-01-01T00-00-00-000', '2026-01-02T00-00-00-000']);
    const child = spawn('bun', [CLI, '--serve', '--port', '0', '--dir', root], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no URL printed within 20 s')), 20_000);
        child.stdout.on('data', (d: Buffer) => {
          const m = /at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(d.toString());
          if (m) clearTimeout(timer), resolve(m[1]!);
        });
      });
      const index = await (await fetch(url)).text();
      expect(index).toContain('href="2026-01-02T00-00-00-000/report.html"');
      expect(index).toContain('href="2026-01-01T00-00-00-000/report.html"');
      expect(index.indexOf('2026-01-02')).toBeLessThan(index.indexOf('2026-01-01')); // newest first
      const report = await fetch(`${url}2026-01-01T00-00-00-000/report.html`);
      expect(report.status).toBe(200);
      expect(report.headers.get('content-type')).toStartWith('text/html');
      expect(await report.text()).toContain('id="contenders"');
      expect((await fetch(`${url}2026-01-01T00-00-00-000/results.json`)).headers.get('content-type')).toBe(
        'application/json',
      );
      expect([403, 404]).toContain((await fetch(`${url}..%2f..%2fetc%2fpasswd`)).status);
      expect((await fetch(`${url}nothing-here.json`)).status).toBe(404);
      const port = new URL(url).port;
      await expect(fetch(`http://[::1]:${port}/`)).rejects.toThrow(); // loopback IPv4 only
    } finally {
      child.kill('SIGTERM');
    }
  }, 60_000);
});
