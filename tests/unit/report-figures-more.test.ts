// Figures of results.md no golden holds: the seed's method beside this one, the self-check row, the method and
// design lines (connections, launches apart, the walk, --redis-rtt), and pool.md's handicap, predictions and counts.
import { describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { type Analysis, type AnswerFigures, analyze } from '../../packages/harness/src/answers/analysis';
import { analyzeRun } from '../../packages/harness/src/publish/index';
import { keptFor, pooledView, recordOf } from '../../packages/harness/src/publish/kept-runs';
import type { Results } from '../../packages/harness/src/model/results';
import { readResults } from '../../packages/harness/src/model/results-file';
import { poolLine, poolSection, poolSuffix } from '../../packages/harness/src/report/across-runs';
import { describeRun, precisionLine, seedMethodTable, selfCheckTable } from '../../packages/harness/src/report/table';
import { ROOT } from '../../packages/harness/src/system/paths';

import { DESIGN } from '../helpers/runs';
const fixture = () => readResults(join(ROOT, 'tests/fixtures/results/results.json'));
const rps = (median: number, lo: number, hi: number) => ({
  median,
  min: lo,
  max: hi,
  n: 5,
  ci: { lo, hi, level: 0.95 },
});

describe("results.md's tables", () => {
  test("the seed's method: its figure against this median, signed, and whether inside the interval", () => {
    const c = (name: string, headline: number) => ({
      name,
      rps: rps(1000, 950, 1050),
      seed_method: { headline, rps: [900, 1100, headline] },
    });
    const an = {
      ranked: [c('above', 1200), c('below', 800), c('inside', 1040)],
      results: { settings: { ci_level: 0.95 } },
    } as unknown as Analysis;
    const rows = seedMethodTable(an).split('\n');
    expect(rows).toContain('| above | 1200 (900, 1100, 1200) | 1000 (950–1050, 95% CI) | +20% | no |');
    expect(rows).toContain('| below | 800 (900, 1100, 800) | 1000 (950–1050, 95% CI) | -20% | no |');
    expect(rows).toContain('| inside | 1040 (900, 1100, 1040) | 1000 (950–1050, 95% CI) | +4% | yes |');
  });

  test('the self-check: the suite and alone each with its own interval, alone against the suite signed', () => {
    const r = {
      contenders: [
        { name: 'a', status: 'ok', rps: rps(1000, 950, 1050) },
        { name: 'a-alone', status: 'ok', self_check_of: 'a', rps: rps(1100, 1040, 1160) },
      ],
    } as unknown as Results;
    expect(selfCheckTable(r).split('\n').at(-1)).toBe(
      '| a | 1000 (950–1050, 95% CI) | 1100 (1040–1160, 95% CI) | +10.0% |',
    );
    r.contenders[1]!.rps = rps(900, 850, 960);
    expect(selfCheckTable(r).split('\n').at(-1)).toBe(
      '| a | 1000 (950–1050, 95% CI) | 900 (850–960, 95% CI) | -10.0% |',
    );
  });
});

describe("results.md's method and design lines", () => {
  /** The fixture at 10/50 connections, with a design and --redis-rtt figures whose every sd differs. */
  function run(layout?: 'walk') {
    const r = fixture();
    r.settings.connections = [10, 50];
    if (layout) (r.settings as { layout?: string }).layout = layout;
    r.design = {
      ...(r.design ?? {}),
      ...DESIGN,
      by_gap: { near_s: 30, near: 0.0001, far: 0.0004, pairs_near: 18, pairs_far: 7 },
      ...(layout ? { by_distance: { adjacent: 0.0001, near: 0.0004, far: 0.0009 } } : {}),
    } as Results['design'];
    const measured = { avg_ms: 1.234, typical_ms: 1.01, min_ms: 0.9, max_ms: 3, samples: 100 };
    r.data.redis_rtt = { asked_ms: 1, proxy_delay_ms: 0.45, measured };
    return describeRun(analyze(r));
  }

  test('every connection count; launches near and far apart each by its own sd; RTT typical, then average', () => {
    const text = run();
    expect(text).toContain(' of 3s at 10/50 connections, ');
    expect(text).toContain(
      'Two launches of one round under 30 s apart differ by sd 1.0%, further apart by 2.0% (18 and 7 pairs)',
    );
    expect(text).toContain('measured 1.010 ms typical (1.234 ms average, 100 samples).');
  });

  test('a walk: window pairs adjacent, 2–15 apart and further, each by its own sd', () => {
    expect(run('walk')).toContain(
      'Window pairs of a comparison measured adjacently differ by sd 1.0%, 2–15 windows apart by 2.0%, ' +
        'further apart by 3.0%: what the walk buys.',
    );
  });
});

/** The published run pooled with the kept runs, as the README and pool.md are written from. */
function published(): Analysis {
  const dir = join(ROOT, 'results/latest');
  const kept = keptFor(readResults(join(dir, 'results.json')), join(ROOT, 'results/runs'));
  const own = analyzeRun(dir, kept);
  return pooledView(own, kept, recordOf(own.results, own)).analysis;
}

describe("pool.md's and the README's pooled figures", () => {
  test("the precision line stays the run's own (its answers' intervals), not the pooled envelopes'", () => {
    const dir = join(ROOT, 'results/latest');
    const kept = keptFor(readResults(join(dir, 'results.json')), join(ROOT, 'results/runs'));
    const own = analyzeRun(dir, kept);
    const pooled = pooledView(own, kept, recordOf(own.results, own)).analysis;
    expect(pooled.pool).toBeTruthy();
    expect(pooled.precision).toEqual(own.precision);
    expect(precisionLine(pooled)).toContain(`this run's own ${own.precision!.widths.n} ratio intervals of its answers`);
  });

  test("a 25% handicap reads −20.0% req/s; each machine's own τ; the count is of every comparison placed", () => {
    const an = published();
    const p = an.pool!;
    expect(p.check).toBeTruthy();
    expect(p.priors.length).toBeGreaterThan(1);
    // Each machine's τ apart from the others' and from the prior's scale.
    const priors = p.priors.map((x, i) => ({ ...x, tau: 0.0123 + i / 100 }));
    const text = poolSection({ ...an, pool: { ...p, priors, check: { ...p.check!, pct: 25 } } });
    const handicap = `(${p.check!.contender}, 25% longer per request by construction, −20.0% req/s), judged as`;
    expect(text).toContain(handicap);
    for (const [i, x] of priors.entries()) expect(text).toContain(`: ${(1.23 + i).toFixed(1)}% from ${x.runs} run`);
    // "of N comparisons": N is the sum of the counts after it, open on every machine too.
    const counts = new RegExp(
      String.raw`of (\d+) comparisons, (\d+) decided the same way on every machine ` +
        String.raw`measured, (?:(\d+) on the one machine that measured it, )?(\d+) on some machines only ` +
        String.raw`\(open on the others\), (\d+) reverses?, (\d+) open on every machine`,
    );
    const m = text.match(counts);
    expect(m).toBeTruthy();
    const [n, same, one, some, reverse, open] = m!.slice(1).map((x) => Number(x ?? 0));
    expect(open).toBeGreaterThan(0);
    expect(n).toBe(same! + one! + some! + reverse! + open!);
    expect(n).toBe(an.answers.filter((a) => !a.out && a.pool?.holds).length);
  });

  test('the README: the run alone answered its decided and equal answers, not every comparison it asked', () => {
    const an = published();
    const own = an.results.answers ?? [];
    const answered = own.filter((a) => a.verdict === 'faster' || a.verdict === 'equal').filter((a) => !a.out);
    expect(answered.length).toBeLessThan(own.length);
    expect(poolLine(an)).toContain(
      `(the run of ${an.results.started_at.slice(0, 10)} alone answered ${answered.length} at its own level;`,
    );
  });

  test("a machine not measured: the prediction low end first, on the faster side's terms when b is faster", () => {
    const pool = { on_machines: [], runs: 3, tau: 0.05, where: 'holds on every machine measured' };
    const a = (ratio: number, lo: number, hi: number) =>
      ({ verdict: 'faster', ratio, pool: { ...pool, prediction: { lo, hi } } }) as unknown as AnswerFigures;
    expect(poolSuffix(a(1.2, 1.1, 1.3))).toBe(
      ' [3 runs, τ 5.0% between boots: holds on every machine measured; on a machine not measured: +10.0%…+30.0%]',
    );
    // b faster (ratio 0.8, 0.7–0.9): said as b's, 1/0.9 to 1/0.7.
    expect(poolSuffix(a(0.8, 0.7, 0.9))).toEndWith('; on a machine not measured: +11.1%…+42.9%]');
  });
});
