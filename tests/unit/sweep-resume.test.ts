// A sweep's points (run/sweep.ts) by a fake run of each: a fresh sweep runs every point; resumed from its folder it
// keeps the complete ones, resumes the one that stopped and runs the rest; its exit code is its worst point's.
import { afterAll, afterEach, describe, expect, spyOn, test } from 'bun:test';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_SETTINGS } from '@bench/stream';
import { parseCli } from '../../packages/harness/src/cli/args';
import type { Results } from '../../packages/harness/src/model/results';
import * as bench from '../../packages/harness/src/run/bench';
import type { CliOptions } from '../../packages/harness/src/run/options';
import type { Session } from '../../packages/harness/src/run/state';
import { readSweep, runSweep, sweepInFolder, sweepOf } from '../../packages/harness/src/run/sweep';
import { ROOT } from '../../packages/harness/src/system/paths';
import { setProgressMode } from '../../packages/harness/src/system/progress';

const temps: string[] = [];
afterAll(() => {
  for (const t of temps) rmSync(t, { recursive: true, force: true });
});
const fixture = (complete: boolean): Results => ({
  ...(JSON.parse(readFileSync(join(ROOT, 'tests/fixtures/results/results.json'), 'utf8')) as Results),
  complete,
});
/** A sweep of one workload flag over 1, 2 and 3, each point in p-<value>/. */
const sweepOpts = (out: string, sweepDir?: string) =>
  ({
    entries: null,
    redisRtts: [0],
    out,
    ...(sweepDir ? { sweepDir } : {}),
    own: {
      settings: null,
      sweep: {
        flag: 'x',
        values: [1, 2, 3],
        step: (v: number) => ({ dir: `p-${v}`, say: `--x: the run at ${v}`, settings: { x: v } }),
        summary: null,
      },
    },
  }) as unknown as CliOptions;
const point = (parent: string, dir: string, complete: boolean) => {
  mkdirSync(join(parent, dir), { recursive: true });
  writeFileSync(join(parent, dir, 'results.json'), JSON.stringify(fixture(complete)));
};
const session = (): Session => ({ results: null, runDir: null, redis: null, apps: new Map() });

/** runBench faked: each call's point, whether it resumed, and its settings; point p-3 exits 3. */
let spy: { mockRestore(): void } | null = null;
function fakeRuns() {
  const calls: { dir: string; resume: string | null; own: unknown }[] = [];
  spy = spyOn(bench, 'runBench').mockImplementation(async (at) => {
    calls.push({ dir: at.runName!, resume: at.resume, own: at.own.settings });
    const runDir = join(at.out, at.runName!);
    return { code: at.runName === 'p-3' ? 3 : 0, results: fixture(true), runDir };
  });
  return calls;
}

describe('a sweep', () => {
  setProgressMode('quiet');
  afterEach(() => {
    spy?.mockRestore();
    spy = null;
  });

  test('which flags make one: --entries, a list of RTTs, a workload flag of two values; one RTT does not', () => {
    const one = { name: 'a-raw-x', runtime: 'a', framework: 'raw', client: 'x', variant: null, suites: [] };
    const all = [{ ...one, settings: { ...DEFAULT_SETTINGS }, suites: ['default' as const] }];
    expect(sweepOf(parseCli([], all))).toBeNull();
    expect(sweepOf(parseCli(['--redis-rtt', '1ms'], all))).toBeNull();
    expect(sweepOf(parseCli(['--redis-rtt', '0,1ms'], all))).toMatchObject({ kind: 'redis-rtt', values: [0, 1] });
    const entries = sweepOf(parseCli(['--entries', '3390,339'], all))!;
    expect([entries.kind, entries.values, entries.step(339).dir]).toEqual(['entries', [339, 3390], 'entries-339']);
  });

  test('fresh: every point run from nothing, its flags recorded in sweep.json; the exit code its worst', async () => {
    const calls = fakeRuns();
    const out = mkdtempSync(join(tmpdir(), 'sweep-fresh-'));
    temps.push(out);
    const done = await runSweep(sweepOpts(out), [], [], session(), async () => {}, ['--x', '1,2,3']);
    expect(calls).toEqual([1, 2, 3].map((v) => ({ dir: `p-${v}`, resume: null, own: { x: v } })));
    expect(done).toMatchObject({ kind: 'own', code: 3, dirs: ['p-1', 'p-2', 'p-3'] });
    const [parent] = readdirSync(out);
    expect(readSweep(join(out, parent!))).toMatchObject({ argv: ['--x', '1,2,3'], values: [1, 2, 3] });
  });

  test('resumed: the complete point kept, the stopped one resumed in its folder, the one not started run', async () => {
    const calls = fakeRuns();
    const parent = mkdtempSync(join(tmpdir(), 'sweep-resumed-'));
    temps.push(parent);
    point(parent, 'p-1', true);
    point(parent, 'p-2', false);
    const reported: string[] = [];
    const done = await runSweep(sweepOpts(parent, parent), [], [], session(), async (d) => void reported.push(d), [
      '--x',
      '1,2,3',
    ]);
    expect(calls).toEqual([
      { dir: 'p-2', resume: join(parent, 'p-2'), own: { x: 2 } },
      { dir: 'p-3', resume: null, own: { x: 3 } },
    ]);
    expect(reported).toEqual([join(parent, 'p-2'), join(parent, 'p-3')]);
    expect(done).toMatchObject({ code: 3, dirs: ['p-1', 'p-2', 'p-3'] });
    // The sweep's own record (its first command line) is not written again.
    expect(existsSync(join(parent, 'sweep.json'))).toBe(false);
  });

  test('a sweep.json cut short or of another shape: one line naming the file, not a stack trace', () => {
    const dir = mkdtempSync(join(tmpdir(), 'sweep-bad-'));
    temps.push(dir);
    for (const [text, why] of [
      ['{"argv": [', /JSON Parse error/],
      ['{}', /no argv, values or dirs/],
      ['null', /no argv, values or dirs/],
    ] as const) {
      writeFileSync(join(dir, 'sweep.json'), text);
      expect(() => readSweep(dir)).toThrow(
        new RegExp(`^${join(dir, 'sweep.json')} cannot be read as a sweep's record`),
      );
      expect(() => readSweep(dir)).toThrow(why);
    }
  });

  test('reported again from its folder only when every point is complete, else how to finish it', () => {
    const parent = mkdtempSync(join(tmpdir(), 'sweep-report-'));
    temps.push(parent);
    for (const v of [1, 2, 3]) point(parent, `p-${v}`, v !== 2);
    expect(() => sweepInFolder(sweepOpts(parent), parent)).toThrow(
      `${parent} is a sweep whose run p-2/ is not complete: finish it with npm run bench -- --resume ${parent}`,
    );
    point(parent, 'p-2', true);
    expect(sweepInFolder(sweepOpts(parent), parent)).toMatchObject({ kind: 'own', dirs: ['p-1', 'p-2', 'p-3'] });
  });
});
