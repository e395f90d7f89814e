// npm run compare's report, rendered from a Comparison written by hand: every figure in its place, at its precision,
// and the words each branch says (the shift's direction, the advice, the run effect, the flags by Holm's p).
import { describe, expect, test } from 'bun:test';
import { compare, type Comparison, type Row } from '../../packages/harness/src/answers/compare';
import type { Results } from '../../packages/harness/src/model/results';
import { seededRandom, summarize } from '../../packages/harness/src/stats/stats';
import { comparisonHtml, renderComparison, shiftsLine } from '../../packages/harness/src/report/compare';

const row = (over: Partial<Row>): Row => ({
  name: 'x',
  medianA: 600,
  medianB: 630,
  a: 1.0123,
  b: 1.0631,
  change: 0.05,
  lo: 0.02,
  hi: 0.08,
  p: 0.001,
  pHolm: 0.004,
  flagged: true,
  detectable: 0.03,
  ...over,
});

/** Three contenders: one flagged, one whose raw p is under 5% but its Holm p is not, one with no interval. */
function comparison(over: Partial<Comparison> = {}): Comparison {
  return {
    mode: 'relative',
    alpha: 0.05,
    rows: [
      row({ name: 'a-raw-x' }),
      row({ name: 'b-raw-y', medianA: 450, medianB: 455, a: 0.9512, b: 0.9498, change: -0.0015, lo: -0.031 }),
      row({ name: 'c-hono-x', medianA: 520, medianB: 521, a: 1, b: 1.01, change: 0.01, lo: -1, hi: Infinity }),
    ].map((r, i) => (i === 0 ? r : { ...r, p: i === 1 ? 0.02 : 1, pHolm: i === 1 ? 0.06 : 1, flagged: false })),
    notCompared: ['d-gone'],
    commonShift: 0.97,
    shared: 3,
    shifts: [
      { group: '*', shift: 0.98, shared: 1 },
      { group: 'bun', shift: 1.05, shared: 2 },
    ],
    prior: { d0: 4.5, s0: 0.0234, trend: false },
    runEffect: { sd: 0.012, on: 3, min: 5 },
    tooFewRuns: null,
    rankChanges: ['a-raw-x 2 → 1'],
    answers: { both: 3, same: 1, differ: ['runtime: bun against node'], flipped: [] },
    changeSize: { median: 0.01, max: 0.05 },
    detectable: { n: 2, median: 0.14, min: 0.03, max: 0.25 },
    ...over,
  };
}

describe("npm run compare's report", () => {
  test('each row: both medians, indices to 3 decimals, the change and its interval, Holm p; flagged by Holm', () => {
    const text = renderComparison(comparison());
    const line = (name: string) => text.split('\n').find((l) => l.startsWith(name))!;
    expect(line('a-raw-x').split(/\s{2,}/)).toEqual([
      'a-raw-x',
      '600',
      '630',
      '1.012',
      '1.063',
      '+5.0% (+2%…+8%)',
      '0.004',
      'changed',
    ]);
    // Raw p 0.02, Holm p 0.06: not flagged, and its Holm p is the one shown.
    expect(line('b-raw-y').split(/\s{2,}/)).toEqual([
      'b-raw-y',
      '450',
      '455',
      '0.951',
      '0.950',
      '-0.1% (-3%…+8%)',
      '0.060',
      '~',
    ]);
    expect(line('c-hono-x')).toContain('+1.0% (no interval: too few launches)');
  });

  test('the shift lower, each runtime signed, the sizes, what the runs could find and its advice, ranks', () => {
    const text = renderComparison(comparison());
    expect(text).toContain("Common-mode shift: B's req/s were 3.0% lower than A's (geometric mean of the 3 dynamic");
    expect(text).toContain(
      'these are not changes of its contenders): the rest -2.0% (1 dynamic), bun +5.0% (2 dynamic).',
    );
    expect(text).toContain('|change| of the index: median 1.0%, max 5.0%; 1 of 3 flagged as changed.');
    expect(text).toContain(
      'What these runs could find: a change of ±14% in one contender is flagged about half the time ' +
        '(median over 2 contenders; ±3% to ±25%); smaller changes mostly pass unflagged, so "~" is not "the same". ' +
        'To see a 10% change, measure both versions side by side in one run',
    );
    expect(text).toContain('Rank intervals: changed for a-raw-x 2 → 1.');
    expect(text).toContain(
      'Answers to the 3 comparisons both runs asked: 1 the same, 1 differ (runtime: bun against node), ' +
        '0 flipped direction.',
    );
    expect(text).toContain('Not compared (missing, not ok or without runs in one of the two): d-gone.');
    // Under 10% findable: no advice.
    const fine = renderComparison(comparison({ detectable: { n: 2, median: 0.08, min: 0.03, max: 0.25 } }));
    expect(fine).toContain('so "~" is not "the same".\n');
  });

  test('the method line: the prior in %, the run effect when there is one, and why not; Holm over the rows', () => {
    const text = renderComparison(comparison());
    expect(text).toContain(
      "each contender's variance shrunk toward sd 2.3% per launch, worth 4.5 df, plus what a run adds beyond its " +
        "launches' noise (sd 1.2% per change, from the 3 dynamic contenders' changes); Holm-corrected across all 3 " +
        'contenders; ~ = not significant at 0.05.',
    );
    const none = (on: number) => renderComparison(comparison({ runEffect: { sd: 0, on, min: 5 } }));
    expect(none(4)).toContain('; no run effect estimated (4 dynamic contenders, fewer than 5);');
    expect(none(5)).toContain("; the 5 dynamic contenders' changes showed no run effect beyond their launches' noise;");
  });

  test('indices taken over the whole run: no runtime shifts line; --absolute: req/s with no decimals', () => {
    expect(shiftsLine(comparison({ shifts: [{ group: '*', shift: 0.98, shared: 3 }] }))).toBeNull();
    const abs = renderComparison(comparison({ mode: 'absolute', runEffect: { sd: 0, on: 0, min: 5 } }));
    expect(abs.split('\n').find((l) => l.startsWith('a-raw-x'))).toMatch(/^a-raw-x\s+600\s+630\s+1\s+1\s+\+5\.0%/);
  });

  test("the page's chart colours a flagged row as changed, the others as not significant", () => {
    const side = { label: 'x', results: { environment: { cpu_model: 'c', logical_cpus: 2 }, data: {} } as Results };
    const html = comparisonHtml(comparison(), side, side);
    const spec = html.match(/"values":\s*(\[[^\]]*\])/);
    const values = JSON.parse(spec![1]!) as { name: string; verdict: string }[];
    expect(values.map((v) => v.verdict)).toEqual(['changed (Holm p < 0.05)', 'not significant', 'not significant']);
  });
});

/** A results.json of these contenders, `n` runs each around its req/s (seeded noise of ±4%), every one ok. */
function run(bases: Record<string, number>, n: number, seed: number, factor: Record<string, number> = {}): Results {
  const rand = seededRandom(seed);
  const contenders = Object.entries(bases).map(([name, base]) => {
    const f = factor[name] ?? 1;
    const runs = Array.from({ length: n }, (_, i) => ({ round: i + 1, rps: f * base * (0.96 + 0.08 * rand()) }));
    const rps = summarize(runs.map((r) => r.rps));
    const points = [{ connections: 50, rate: null, rate_spec: null, status: 'ok', runs, rps }];
    return { name, runtime: name.split('-')[0], status: 'ok', static: false, points, runs, rps };
  });
  const environment = { cpu_model: 'Test CPU', logical_cpus: 2, node: 'v24', bun: '1.4.5', oha: 'oha 1.16.0' };
  return {
    schema: 2,
    settings: { workload: 'xrange' },
    environment: {
      ...environment,
      redis_server: 'Redis server v=7.0.15 sha=0',
      packages: { node: { redis: '6.3.1' } },
    },
    data: { entries: 339, body_bytes: 46028 },
    contenders,
  } as unknown as Results;
}

const TWO_EACH = { 'bun-raw-x': 700, 'bun-hono-x': 600, 'node-raw-x': 640, 'node-express-x': 560 };

describe('npm run compare: the figures it reports', () => {
  test("each row's req/s of A and of B, the largest |change|, and two runtimes of two each indexed apart", () => {
    const a = run(TWO_EACH, 6, 1);
    const b = run(TWO_EACH, 6, 2, { 'bun-raw-x': 1.3 });
    const cmp = compare(a, b);
    const median = (r: Results, n: string) => r.contenders.find((c) => c.name === n)!.rps!.median;
    for (const r of cmp.rows) expect([r.medianA, r.medianB]).toEqual([median(a, r.name), median(b, r.name)]);
    expect(cmp.changeSize!.max).toBe(Math.max(...cmp.rows.map((r) => Math.abs(r.change))));
    expect(cmp.changeSize!.max).toBeGreaterThan(cmp.changeSize!.median);
    expect(cmp.shifts.map((s) => [s.group, s.shared])).toEqual([
      ['bun', 2],
      ['node', 2],
    ]);
  });

  test('as many contenders, not the same ones: ranks not compared; one launch a side: none findable', () => {
    const a = run({ 'bun-raw-x': 700, 'bun-hono-x': 600, 'node-raw-x': 640 }, 4, 1);
    const b = run({ 'bun-raw-x': 700, 'bun-hono-x': 600, 'node-raw-y': 640 }, 4, 2);
    expect(compare(a, b).rankChanges).toBeNull();
    const one = compare(run(TWO_EACH, 1, 1), run(TWO_EACH, 1, 2));
    expect(one.rows.every((r) => !Number.isFinite(r.detectable))).toBe(true);
    expect(one.detectable).toBeNull();
  });
});
