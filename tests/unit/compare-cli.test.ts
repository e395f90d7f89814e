// npm run compare's command line (cli/compare.ts): --absolute chooses the req/s, and anything but two runs is refused.
import { describe, expect, test } from 'bun:test';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../../packages/harness/src/system/paths';

const CLI = join(ROOT, 'packages/harness/src/cli/compare.ts');
const RUN = join(ROOT, 'tests/fixtures/results/results.json');
const compareCli = (...args: string[]) =>
  spawnSync(process.execPath, [CLI, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });

describe('npm run compare -- A B', () => {
  test('--absolute compares req/s, its header and method line say so; without it, the relative index', () => {
    const absolute = compareCli(RUN, RUN, '--absolute');
    expect([absolute.status, absolute.stderr]).toEqual([0, '']);
    const header = (out: string) => out.split('\n').find((l) => l.startsWith('contender '))!;
    // Beside the medians, the launches' geometric means (round drift removed): named apart, not "req/s" twice.
    expect(header(absolute.stdout)).toMatch(/req\/s A +req\/s B +mean A +mean B +change/);
    expect(absolute.stdout).toContain('on the launch means of log req/s, round drift removed (--absolute)');
    expect(absolute.stdout).not.toContain('Runtime shifts');
    const relative = compareCli(RUN, RUN);
    expect(relative.status).toBe(0);
    expect(header(relative.stdout)).toMatch(/req\/s A +req\/s B +index A +index B +change/);
    expect(relative.stdout).not.toContain('(--absolute)');
  });

  test('one contender, --absolute: its own variance, said so, and no NaN in the method line', () => {
    const one = JSON.parse(readFileSync(RUN, 'utf8'));
    one.contenders = one.contenders.filter((c: { name: string }) => c.name === 'node-raw-node-redis');
    const dir = mkdtempSync(join(tmpdir(), 'compare-one-'));
    try {
      writeFileSync(join(dir, 'results.json'), JSON.stringify(one));
      const r = compareCli(join(dir, 'results.json'), join(dir, 'results.json'), '--absolute');
      expect([r.status, r.stderr]).toEqual([0, '']);
      expect(r.stdout).toContain("each contender's own variance (too few contenders to fit a prior)");
      expect(r.stdout).not.toContain('NaN');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('three runs are refused with exit 2, the usage line and nothing compared', () => {
    const three = compareCli(RUN, RUN, RUN);
    expect(three.status).toBe(2);
    expect(three.stdout).toBe('');
    expect(three.stderr).toMatch(/^error: give two runs, got 3; usage: npm run compare -- A B \[--absolute\]/);
  });
});
