// --workload xadd-trim, the second write workload, through the harness as a user runs it: two stacks append to the
// capped stream with every acknowledged write counted by the stream's own entries-added counter, their probes read
// back, the cap kept and one XADD per response proven; a fake that answers writes it never made is caught. The
// accounting's arithmetic is checked alone first.
import { describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../packages/harness/src/system/paths';
import { accountTrim } from '../../packages/harness/src/workloads/xadd-trim/accounting';
import { entryBefore, trimmedBetween } from '../../packages/harness/src/workloads/xadd-trim/measure';
import { explained, resultsIn, runCli, settle } from '../helpers/cli';

const SHORT = ['--workload', 'xadd-trim', '--runs', '1', '--duration', '1s', '--warmup', '0s', '--windows', '2'];
const counts = { unanswered: 0, probes: [], addedBefore: 100, length: 1000, cap: 1100 };

describe('xadd-trim accounting', () => {
  test('the 201s equal the entries added: nothing lost; fewer: lost; more than the unanswered allow: invented', () => {
    expect(accountTrim({ ...counts, statuses: { '201': 50 }, addedAfter: 150 }).problem).toBeNull();
    expect(accountTrim({ ...counts, statuses: { '201': 50 }, addedAfter: 145 })).toMatchObject({
      lost: 5,
      problem: 'lost writes: 50 acknowledged with 201, the stream counted 45 added: 5 lost',
    });
    // A 500 may or may not have written: it widens the bound, and no more.
    expect(accountTrim({ ...counts, statuses: { '201': 50, '500': 2 }, addedAfter: 152 }).problem).toBeNull();
    expect(accountTrim({ ...counts, statuses: { '201': 50, '500': 2 }, addedAfter: 153 }).invented).toBe(1);
  });
  test('a probe acknowledged but not found is lost, unless the cap trimmed it first; a stream over its cap', () => {
    const probes = [
      { status: 201, found: true },
      { status: 201, found: false },
      // Written after the stream's last entry before it was sent, older than its first when read back: the cap
      // trimmed it; the counter still holds it (measure.ts trimmedBetween, below).
      { status: 201, found: false, trimmed: true },
    ];
    const t = accountTrim({ ...counts, probes, statuses: {}, addedAfter: 103, length: 1101 });
    expect(t.probes_missing).toBe(1);
    expect(t.probes_trimmed).toBe(1);
    expect(t.lost).toBe(0);
    // Entry ids in order: by milliseconds, then sequence, as whole numbers (not as text).
    expect(entryBefore('999-5', '1000-0')).toBe(true);
    expect(entryBefore('1000-2', '1000-10')).toBe(true);
    expect(entryBefore('1000-10', '1000-10')).toBe(false);
    expect(entryBefore('999', '1000-0')).toBe(true);
    expect(entryBefore('not-an-id', '1000-0')).toBe(false);
    // Trimmed only if this write made it: after the last entry before it was sent. An id the app made up ("1-1", as
    // the lose-writes fake answers) or reused is missing, however old.
    expect(trimmedBetween('1700000000050-3', '1700000000049-0', '1700000000200-0')).toBe(true);
    expect(trimmedBetween('1-1', '1700000000049-0', '1700000000200-0')).toBe(false);
    expect(trimmedBetween('1700000000049-0', '1700000000049-0', '1700000000200-0')).toBe(false);
    expect(trimmedBetween('1700000000300-0', '1700000000049-0', '1700000000200-0')).toBe(false);
    expect(t.problem).toContain("1 of the harness's 3 acknowledged entries not in the stream");
    expect(t.problem).toContain('the stream holds 1101 entries, over its cap of 1100: not trimmed');
  });
});

describe('--workload xadd-trim', () => {
  test('two stacks: every acknowledged append counted by the stream, probes found, capped, one XADD each', async () => {
    const names = ['node-raw-node-redis', 'bun-raw-ioredis'];
    const run = await runCli(['--only', names.join(','), ...SHORT], { env: { BENCH_APPS_DIR: join(ROOT, 'apps') } });
    await explained(run, async () => {
      expect(run.code).toBe(0);
      const { dir, json } = resultsIn(run.outDir);
      for (const name of names) {
        const c = json.contenders.find((x: any) => x.name === name);
        expect(c.status).toBe('ok');
        const windows = c.points[0].runs.flatMap((r: any) => r.windows);
        expect(windows.length).toBe(2);
        for (const w of windows) {
          const t = w.workload.data;
          expect(w.workload.kind).toBe('xadd-trim');
          expect(t).toMatchObject({ lost: 0, invented: 0, probes_missing: 0, problem: null, errors: 0 });
          expect(t.added).toBe(t.acked);
          expect(t.probes).toBeGreaterThan(5);
          // Read back, not all trimmed first: the probe checked entries (a trimmed one is said apart).
          expect(t.probes - t.probes_trimmed).toBeGreaterThan(0);
          expect(t.length).toBeLessThanOrEqual(t.cap);
          // oha's writes outnumber the cap: the stream was trimmed, not merely short.
          expect(t.added).toBeGreaterThan(t.cap);
          expect(t.redis_commands.xadd).toBe(t.acked);
        }
      }
      const md = readFileSync(join(dir, 'results.md'), 'utf8');
      expect(md).toContain('**Appends to a capped stream: every acknowledged write accounted for**');
      expect(md).toMatch(/\| node-raw-node-redis \| \d+ \| [\d.]+ \/ [\d.]+ \| \d+ \| 1\.00 \| 0 lost, 0 invented/);
    });
  });

  test('a fake that answers every 10th write without making it: invalid, the lost writes counted', async () => {
    const run = await runCli(['--only', 'bun-fake-lose-writes-node-redis', ...SHORT]);
    await explained(run, async () => {
      const c = resultsIn(run.outDir).json.contenders[0];
      expect(c.status).toBe('invalid');
      expect(c.reason).toMatch(/lost writes: \d+ acknowledged with 201, the stream counted \d+ added: \d+ lost/);
      expect(run.stderr).toContain('bun-fake-lose-writes-node-redis: INVALID');
      expect(await settle(run.seen)).toEqual([]);
    });
  });

  test('a fake that makes every 10th write twice and answers once: invalid, the invented writes counted', async () => {
    const run = await runCli(['--only', 'bun-fake-dup-writes-node-redis', ...SHORT]);
    await explained(run, async () => {
      const c = resultsIn(run.outDir).json.contenders[0];
      expect(c.status).toBe('invalid');
      expect(c.reason).toMatch(/invented writes: the stream counted \d+ added, \d+ acknowledged, \d+ unanswered/);
      expect(await settle(run.seen)).toEqual([]);
    });
  });
});
