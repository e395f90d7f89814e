import { describe, expect, test } from 'bun:test';
import type { Analysis } from '../../packages/harness/src/answers/analysis';
import { heldUp } from '../../packages/harness/src/answers/held';
import { heldLine, heldTable } from '../../packages/harness/src/report/held';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { keptName, notKept, type KeptAnswers } from '../../packages/harness/src/model/kept';
import { keptFor, writeKept } from '../../packages/harness/src/publish/kept-runs';
import type { Results } from '../../packages/harness/src/model/results';
import { ROOT } from '../../packages/harness/src/system/paths';

const run = (started_at: string, answers: KeptAnswers['answers'], workload = 'xrange'): KeptAnswers => ({
  started_at,
  workload,
  commit: 'abcdef0123',
  machine: 'AMD EPYC, 2 logical CPUs, Linux 6.18',
  sd_windows: 0.12,
  answers,
});
const ans = (a: string, b: string, ratio: number, verdict: 'faster' | 'equal' | 'undecided' = 'faster') => ({
  a,
  b,
  ratio,
  lo: ratio * 0.9,
  hi: ratio * 1.1,
  verdict,
});

describe('where the answers hold', () => {
  const here = run('2026-11-26T10:00:00Z', [
    ans('x', 'y', 1.5),
    ans('x', 'z', 0.7),
    ans('y', 'z', 1.2),
    ans('u', 'v', 1.3),
    ans('p', 'q', 1.1),
    ans('x', 'w', 1.02, 'undecided'),
  ]);
  test('each decided answer, in each other run, whichever side it put first', () => {
    const other = run('2026-11-25T10:00:00Z', [
      ans('x', 'y', 1.4), // the same way
      ans('z', 'x', 0.8), // sides swapped, x still slower: reversed
      ans('y', 'z', 1.0, 'undecided'),
      ans('u', 'v', 1.01, 'equal'),
      { ...ans('p', 'q', 2), out: 'p is invalid' },
    ]);
    const h = heldUp(here, [other, here])!;
    expect(h.runs).toHaveLength(1);
    expect(h.rows.map((r) => `${r.a}/${r.b}: ${r.there[0]}`)).toEqual([
      'x/y: same',
      'x/z: reversed',
      'y/z: open',
      'u/v: equal',
      'p/q: not asked',
    ]);
    expect(h.counts[0]).toEqual({ same: 1, equal: 1, open: 1, reversed: 1, 'not asked': 1 });
  });
  test("the README's line: one sentence over every other run, each reversal named with its run", () => {
    const other = run('2026-11-25T10:00:00Z', [ans('x', 'y', 1.4), ans('z', 'x', 0.8), ans('u', 'v', 1.3)]);
    const split = {
      ...run('2026-11-27T09:30:00Z', [ans('x', 'y', 1.2), ans('x', 'z', 0.75)]),
      machine: 'Intel Xeon, 2 logical CPUs, Linux 6.18',
      host: { placement: 'split' },
    } as KeptAnswers;
    const elsewhere = heldUp(here, [other, split])!;
    const line = heldLine({ elsewhere, results: { settings: { workload: 'xrange' } } } as unknown as Analysis);
    expect(line).toContain('in the 2 other runs kept (from 2026-11-25 to 2026-11-27, on 2 kinds of machine)');
    expect(line).toContain(
      'reversed 1 time (x ÷ z in the run of 2026-11-25 10:00 (abcdef0, AMD EPYC, 2 logical CPUs))',
    );
    expect(line).toContain('decided the same way in 2 per run');
    expect(heldLine({ elsewhere: null } as unknown as Analysis)).toBe('');
  });
  test("results.md's table: a column per machine and placement, each cell counting its runs, a reversal named", () => {
    const amd = (at: string, answers: KeptAnswers['answers'], sd: number) => ({ ...run(at, answers), sd_windows: sd });
    const xeon = {
      ...run('2026-11-27T09:30:00Z', [ans('x', 'y', 1.2)]),
      machine: 'Intel Xeon, 2 logical CPUs, Linux 6.18',
      host: { cpu_model: 'Intel Xeon', logical_cpus: 2, arch: 'x64', placement: 'split' },
    } as KeptAnswers;
    const elsewhere = heldUp(here, [
      xeon,
      amd('2026-11-24T08:00:00Z', [ans('x', 'y', 1.4), ans('z', 'x', 0.8)], 0.1),
      amd('2026-11-25T10:00:00Z', [ans('x', 'y', 1.3), ans('x', 'z', 0.7)], 0.2),
    ])!;
    const table = heldTable({ elsewhere } as unknown as Analysis).split('\n');
    // The default placement first, then the split one; each head with its runs, their days and sd between windows.
    expect(table[2]).toBe(
      '| answer here (A ÷ B req/s) | AMD EPYC, 2 logical CPUs: 2 runs, 2026-11-24 to 2026-11-25, sd 10.0%–20.0% | ' +
        'Intel Xeon, 2 logical CPUs (placement split): 1 run, 2026-11-27, sd 12.0% |',
    );
    const row = (a: string, b: string) =>
      table
        .find((l) => l.startsWith(`| ${a} ÷ ${b}: `))!
        .split(' | ')
        .slice(1);
    expect(row('x', 'y')).toEqual(['2 same', '1 same |']);
    expect(row('x', 'z')).toEqual(['1 same, 1 reversed (2026-11-24 08:00)', '1 not measured there |']);
    expect(table.at(-1)).toBe(
      '| **of 5 in each run** | 3 same, 1 reversed, 6 not measured there | 1 same, 4 not measured there |',
    );
    expect(heldTable({ elsewhere: null } as unknown as Analysis)).toBe('');
    // A 4-CPU machine's default placement (disjoint) is the machine itself: no placement in its column's head.
    const runner = { ...xeon, host: { ...xeon.host!, logical_cpus: 4, placement: 'disjoint' } } as KeptAnswers;
    const heads = heldTable({ elsewhere: heldUp(here, [runner]) } as unknown as Analysis).split('\n')[2];
    expect(heads).toContain('| Intel Xeon, 4 logical CPUs: 1 run, 2026-11-27');
    expect(heads).not.toContain('placement');
  });
  test('only runs of the same workload, never itself; nothing to say without one', () => {
    expect(heldUp(here, [here])).toBeNull();
    expect(heldUp(here, [run('2026-11-25T10:00:00Z', [ans('x', 'y', 1.4)], 'upsert')])).toBeNull();
    expect(heldUp(run('t', [ans('x', 'y', 1, 'undecided')]), [run('s', [ans('x', 'y', 1.4)])])).toBeNull();
  });
  test('a kept file is named by its date, machine and commit', () => {
    expect(keptName(here)).toBe('2026-11-26-amd-epyc-2-logical-cpus-abcdef0.json');
  });
  test('a second run of the same day, machine and commit is kept beside the first, not over it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kept-'));
    try {
      const first = writeKept(dir, here);
      expect(writeKept(dir, here)).toBe(first);
      const again = { ...here, started_at: `${here.started_at.slice(0, 10)}T18:04:05Z` };
      const second = writeKept(dir, again);
      expect(second).toBe(first.replace(/\.json$/, '-180405.json'));
      expect(readdirSync(dir).sort()).toEqual([basename(first), basename(second)].sort());
      expect(JSON.parse(readFileSync(first, 'utf8')).started_at).toBe(here.started_at);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  test('only a complete run of a whole suite is kept', () => {
    const r = (complete: boolean, settings: object) => ({ complete, settings }) as unknown as Results;
    expect(notKept(r(true, {}))).toBeNull();
    expect(notKept(r(false, {}))).toBe('it is not complete');
    for (const s of [{ only: ['a'] }, { against: { ref: 'HEAD' } }, { handicap: 'a' }])
      expect(notKept(r(true, s))).toMatch(/a part of the suite or a change/);
    // A user's own app (--app) is never kept, whatever suite it ran beside (--matrix keeps the suite whole).
    expect(notKept(r(true, { apps: [{ name: 'your-app', command: 'node s.mjs' }] }))).toBe(
      'it measured your own app (--app)',
    );
    // Writes with Redis far away answer another question: published apart, never held up against those at none.
    expect(notKept(r(true, { redis_rtt_ms: 1 }))).toMatch(/network distance/);
    expect(notKept(r(true, { redis_rtt_ms: 0 }))).toBeNull();
    // Nor is such a run held up against them: it gets no kept runs, whatever the folder holds.
    expect(keptFor(r(true, { redis_rtt_ms: 1 }), join(ROOT, 'results/runs'))).toEqual([]);
    expect(keptFor(r(true, { redis_rtt_ms: 0 }), join(ROOT, 'results/runs')).length).toBeGreaterThan(0);
  });
});
