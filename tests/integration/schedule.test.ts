// The schedule, on fake contenders: one fresh, verified, warmed-up app per run and nothing
// else alive; shuffled rounds that repeat from their seed; --runs auto; nothing published by a partial run.
import { describe, expect, test } from 'bun:test';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../../packages/harness/src/system/paths';
import { summarizeOha } from '../../packages/harness/src/measure/oha';
import { explained, resultsIn, runCli, settle } from '../helpers/cli';

const GOOD = 'bun-fake-good-node-redis';
const OTHER = 'bun-fake-other-ioredis';
const rawOk = (dir: string, file: string) => summarizeOha(JSON.parse(readFileSync(join(dir, file), 'utf8'))).ok;

describe('each run is its own fresh launch', () => {
  test("a block keeps its runtime's apps alive, the idle ones free; a process per run; warmup uncounted", async () => {
    const log = join(mkdtempSync(join(tmpdir(), 'served-')), 'served.log');
    const run = await runCli(
      ['--only', `${GOOD},${OTHER}`, '--runs', '2', '--windows', '2', '--duration', '500ms', '--warmup', '500ms'],
      { env: { FAKE_SERVED_LOG: log } },
    );
    await explained(run, async () => {
      expect(run.code).toBe(0);
      expect(run.peakApps).toBe(2); // one block of two, sampled every 100 ms through the whole command
      const { dir, json } = resultsIn(run.outDir);
      const served = new Map(
        readFileSync(log, 'utf8')
          .trim()
          .split('\n')
          .map((l) => l.split(' ').map(Number) as [number, number]),
      );
      for (const c of json.contenders) {
        // Two runs, two processes: each run its own launch.
        expect(c.runs).toHaveLength(2);
        expect(new Set(c.runs.map((r: any) => r.pid)).size).toBe(2);
        for (const r of c.runs) {
          // The run counts only its own oha processes: one per measured window.
          expect(r.windows).toHaveLength(2);
          // While it was measured, the other app of its block idled: under 25% of one CPU (a busy one
          // would use most of it; Bun's work after a window can run 90–210 ms into the next on a quiet machine, and
          // longer on a slow one). /proc counts CPU in 10 ms ticks, a few of them per 1 s run here.
          expect(r.idle_cpu_s).toBeLessThan(0.25 * r.seconds);
          expect(r.windows.reduce((n: number, w: any) => n + rawOk(dir, w.raw), 0)).toBe(r.ok);
          // The warmup: its first part one request at a time, then at the measured load.
          const prime = rawOk(dir, r.raw.replace('.json', '-warmup-prime.json'));
          const warmup = prime + rawOk(dir, r.raw.replace('.json', '-warmup.json'));
          expect(prime).toBeGreaterThan(0);
          expect(warmup).toBeGreaterThan(prime);
          // What the app served: the readiness probe, the check before, the warmup, the windows, a check after each.
          // A probe that times out on a starved machine is sent again: at most two more.
          const beyond = served.get(r.pid)! - (1 + warmup + r.ok + r.windows.length);
          expect(beyond).toBeGreaterThanOrEqual(1);
          expect(beyond).toBeLessThanOrEqual(3);
        }
      }
      expect(await settle(run.seen)).toEqual([]);
    });
  });

  test('the round order is shuffled from a recorded seed, and --seed repeats it', async () => {
    const names = ['good', 'other', 'cache'].map((v) => `bun-fake-${v}-${v === 'other' ? 'ioredis' : 'node-redis'}`);
    const order = async (seed: string) => {
      const run = await runCli([
        '--only',
        names.join(','),
        '--runs',
        '4',
        // What is measured does not order the rounds: the shortest windows will do.
        '--windows',
        '1',
        '--duration',
        '100ms',
        '--warmup',
        '0s',
        '--seed',
        seed,
      ]);
      expect(resultsIn(run.outDir).json.settings.seed).toBe(Number(seed));
      return run.stderr
        .split('\n')
        .map((l) => /^(\S+) c50 run (\d)\//.exec(l))
        .filter(Boolean)
        .map((m) => `${m![2]}:${m![1]}`);
    };
    // The two runs share nothing (each its own Redis and ports): side by side, as the order is all they check.
    const [a, again] = await Promise.all([order('7'), order('7')]);
    expect(again).toEqual(a);
    // Not a fixed rotation: over 4 rounds of 3, some round starts with a contender other than round 1's first.
    const firsts = new Set([1, 2, 3, 4].map((k) => a.find((x) => x.startsWith(`${k}:`))?.split(':')[1]));
    expect(firsts.has(undefined)).toBe(false);
    expect(firsts.size).toBeGreaterThan(1);
  });
});

describe('--runs auto', () => {
  const auto = (only: string, extra: string[]) =>
    runCli(['--only', only, '--runs', 'auto', '--duration', '300ms', '--warmup', '0s', '--windows', '2', ...extra]);
  test('with no comparison to race, every contender gets the first three rounds and the run stops', async () => {
    const run = await auto(GOOD, []);
    await explained(run, () => {
      expect(run.code).toBe(0);
      const { json } = resultsIn(run.outDir);
      expect(json.contenders[0].runs.map((r: any) => r.round)).toEqual([1, 2, 3]);
      expect(json.schedule.stop_reason).toBe('every comparison decided or bounded');
      // The interim look after round 3 found nothing open; the last look follows the rounds.
      expect(json.looks.map((l: any) => [l.round, l.open, !!l.last])).toEqual([
        [3, [], false],
        [3, [], true],
      ]);
    });
  });
  test('the budget stops the rounds before one would overrun it', async () => {
    // Two contenders of equal sleep per request, at 4 connections where the sleep sets their speed, and a bound no
    // interval can reach: only the budget can stop them.
    const run = await auto('bun-raw-paced-node-redis,bun-raw-paced-ioredis', [
      '--connections',
      '4',
      '--target-ci',
      '0.001',
      '--budget',
      '4s',
    ]);
    await explained(run, () => {
      expect(run.code).toBe(0);
      const { json } = resultsIn(run.outDir);
      expect(json.contenders[0].runs.length).toBeLessThan(15);
      // ioredis costs a little more CPU per read than node-redis: a slow machine may decide that gap at a look before
      // the budget is spent, and the run then stops there, with nothing open.
      const { verdict } = json.answers[0];
      expect(['undecided', 'faster']).toContain(verdict);
      if (verdict === 'undecided') expect(json.schedule.stop_reason).toMatch(/^budget/);
      else expect(json.schedule.stop_reason).toBe('every comparison decided or bounded');
    });
  });
});

describe('progress', () => {
  const quick = ['--only', GOOD, '--runs', '1', '--duration', '300ms', '--warmup', '0s'];
  test('not on a terminal: the plain lines, and an ETA line (then one a minute)', async () => {
    const run = await runCli(quick);
    await explained(run, () => {
      expect(run.code).toBe(0);
      expect(run.stderr).toMatch(
        new RegExp(
          `^progress: measuring · ${GOOD} c50 · round 1 of 1 · 1 run left · ETA \\d+m\\d\\ds \\(\\d\\d:\\d\\d\\)$`,
          'm',
        ),
      );
      expect(run.stderr).toMatch(new RegExp(`^${GOOD} c50 run 1/1: `, 'm'));
      const { json } = resultsIn(run.outDir);
      expect(json.schedule.eta_after_round_1_s).toBeGreaterThan(0);
      expect(json.schedule.ended_s).toBeGreaterThanOrEqual(json.schedule.measuring_s);
    });
  });
  test('--quiet: no progress and no line per run; errors and where the results went only', async () => {
    const run = await runCli([...quick, '--quiet']);
    await explained(run, () => {
      expect(run.code).toBe(0);
      expect(run.stderr).not.toMatch(/^progress:|run 1\/1:|^build |^redis /m);
      expect(run.stderr.trim().split('\n').at(-1)).toMatch(/^results in /);
    });
  });
});

describe('publishing', () => {
  const tracked = ['README.md', 'screenshots', 'results/latest'];
  const files = (p: string): string[] =>
    statSync(join(ROOT, p)).isDirectory() ? readdirSync(join(ROOT, p)).flatMap((f) => files(join(p, f))) : [p];
  const fingerprint = () =>
    Object.fromEntries(
      tracked.flatMap(files).map((f) => [
        f,
        createHash('sha256')
          .update(readFileSync(join(ROOT, f)))
          .digest('hex'),
      ]),
    );

  test('an --only run into results/ leaves README.md, screenshots/ and results/latest byte-identical', async () => {
    const before = fingerprint();
    const dirsBefore = new Set(readdirSync(join(ROOT, 'results')));
    const run = await runCli(['--only', GOOD, '--runs', '1', '--duration', '300ms', '--warmup', '0s'], {
      defaultOut: true,
    });
    const made = readdirSync(join(ROOT, 'results')).filter((d) => !dirsBefore.has(d));
    try {
      expect(run.code).toBe(0);
      expect(made).toHaveLength(1);
      expect(existsSync(join(ROOT, 'results', made[0]!, 'results.json'))).toBe(true);
      expect(run.stderr.trim().split('\n').at(-1)).toMatch(
        new RegExp(
          /^results in .*results\/.* \(not published: --only or --where /.source +
            /runs a part of the suite; add --publish to publish it\)$/.source,
        ),
      );
      expect(fingerprint()).toEqual(before);
    } finally {
      for (const d of made) rmSync(join(ROOT, 'results', d), { recursive: true, force: true });
    }
  });
});
