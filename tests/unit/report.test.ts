import { describe, expect, test } from 'bun:test';
import { markdown } from '../../packages/harness/src/report/index';
import { readmeMarkers, README_END, README_START, spliceReadme } from '../../packages/harness/src/publish/readme';
import { headlineTable } from '../../packages/harness/src/report/table';
import { fasterText, picks } from '../../packages/harness/src/report/answers';
import { asFactor } from '../../packages/harness/src/report/words';
import { analyze } from '../../packages/harness/src/answers/analysis';
import type { ContenderResult, Results, RunRecord } from '../../packages/harness/src/model/results';
import { seededRandom } from '../../packages/harness/src/stats/stats';

const lat = (base: number) => ({
  p10: base,
  p25: base + 1,
  p50: base + 2,
  p75: base + 3,
  p90: base + 4,
  p95: base + 5,
  p99: base + 6,
  p99_9: base + 7,
});
/** n rounds of 4 windows each, ±5% seeded noise around rps: what the rank intervals are computed from. */
function runsAround(rps: number, n: number, seed: number) {
  const random = seededRandom(seed);
  return Array.from({ length: n }, (_, i) => ({
    round: i + 1,
    rps,
    windows: Array.from({ length: 4 }, () => ({ rps: rps * (0.95 + 0.1 * random()) })),
  })) as unknown as RunRecord[];
}
let seed = 1;
function contender(name: string, rps: number, extra: Partial<ContenderResult> = {}, n = 6): ContenderResult {
  const level = n === 6 ? 0.96875 : 0.9375;
  const runs = runsAround(rps, n, seed++);
  return {
    name,
    app: 'x',
    runtime: name.split('-')[0]!,
    framework: 'raw',
    client: 'node-redis',
    variant: null,
    static: false,
    page: false,
    path: '/',
    status: 'ok',
    rps: { median: rps, min: rps - 10, max: rps + 10, ci: { lo: rps - 5, hi: rps + 5, level }, n },
    latency_ms: lat(rps / 10),
    relative: { median: rps / 500, lo: (rps - 5) / 500, hi: (rps + 5) / 500, level },
    cpu_us_per_req: 1000,
    rss_mb: 80,
    redis_calls_per_req: 1,
    redis_us_per_call: 240,
    loadgen_saturated: false,
    points: [{ connections: 50, rate: null, rate_spec: null, status: 'ok', runs }],
    runs,
    ...extra,
  };
}
const results = {
  schema: 1,
  complete: true,
  started_at: '2026-01-01T00:00:00Z',
  finished_at: null,
  exit_reason: null,
  settings: {
    profile: 'default',
    workload: 'xrange',
    connections: [50],
    rates: [],
    duration_s: 5,
    requests: null,
    warmup_s: 3,
    runs: 'auto',
    target_ci_pct: 5,
    max_runs: 15,
    budget_s: 900,
    ci_level: 0.95,
    seed: 42,
    headline: 'median',
    placement: { name: 'none' },
  },
  environment: {
    cpu_model: 'Test CPU',
    logical_cpus: 2,
    memory_gb: 24,
    kernel: 'Linux',
    load_average_1m_before: 0.1,
    node: 'v20',
    bun: '1.4.5',
    redis_server: 'Redis server v=7.0.15 sha=0',
    oha: 'oha 1.16.0',
    git_commit: 'abcdef1234567',
    git_dirty: false,
  },
  data: { entries: 339, memory_bytes: 19040, body_bytes: 46028 },
  contenders: [
    contender('node-raw-node-redis', 450, {}, 5),
    contender('bun-raw-node-redis', 600.4),
    contender('bun-hono-node-redis', 596),
    contender('node-next-route-static-ioredis', 900, { static: true, redis_calls_per_req: 0 }),
    contender('bun-bad-ioredis', 9999, { status: 'invalid', reason: 'body differs from the golden body at byte 12' }),
  ],
} as unknown as Results;

describe('answer sentences', () => {
  test('an interval that excludes no change never prints 0% at its end', () => {
    expect(fasterText(1.07, 1.003, 1.14, 'x')).toBe('is faster than x by 7% (0.3%–14%)');
    expect(fasterText(1.2, 1.1, 1.3, 'x')).toBe('is faster than x by 20% (10%–30%)');
  });

  test('how much faster is a factor from 1.5× on, a percentage below, everywhere on the page (one switch)', () => {
    expect(fasterText(1.49, 1.3, 1.7, 'x')).toBe('is faster than x by 49% (30%–70%)');
    expect(fasterText(1.5, 1.3, 1.7, 'x')).toBe('serves 1.5× what x does (1.3–1.7×)');
    expect([1.4999, 1.5, 2].map(asFactor)).toEqual([false, true, true]);
  });
});

describe('tables', () => {
  test('the headline table: rank intervals, intervals with their true level, relative index, percentiles', () => {
    const lines = headlineTable(analyze(results)).split('\n');
    expect(lines[0]).toBe(
      '| rank | contender | req/s | interval of the median | relative index (interval) | launches | ' +
        'p10 | p25 | p50 | p75 | p90 | p95 | p99 |',
    );
    expect(lines[2]).toBe(
      '| 1 | node-next-route-static-ioredis (static: no Redis read per request) | 900 | 895–905 (95% CI) | ' +
        '1.80 (1.79–1.81) | 6 | 90.0 | 91.0 | 92.0 | 93.0 | 94.0 | 95.0 | 96.0 |',
    );
    // 600 and 596 are not told apart by their paired windows: each may rank 2nd or 3rd.
    expect(lines[3]).toStartWith('| 2–3 | bun-raw-node-redis | 600 | 595–605 (95% CI) |');
    expect(lines[4]).toStartWith('| 2–3 | bun-hono-node-redis | 596 |');
    // Five runs cannot give a 95% interval: the real level is printed.
    expect(lines[5]).toStartWith('| 4 | node-raw-node-redis | 450 | 445–455 (93.8% CI) |');
    expect(lines).toHaveLength(6);
  });
  test('the full report names the machine and lists what was not ranked, with the reason', () => {
    const md = markdown(analyze(results), 'screenshots/');
    expect(md).toContain('Machine: Test CPU, 2 logical CPUs');
    // The host CPU behind the name, where the run recorded it.
    const cpu_id = 'GenuineIntel family 6 model 207 stepping 2, L3 307200K';
    const withId = { ...results, environment: { ...results.environment, cpu_id } };
    expect(markdown(analyze(withId), 'screenshots/')).toContain(`Machine: Test CPU (${cpu_id}), 2 logical CPUs`);
    expect(md).toContain('- **bun-bad-ioredis**: invalid — body differs from the golden body at byte 12');
    expect(md).toContain('![req-sec.png](screenshots/req-sec.png)');
    // A build that failed: its reason points below, to its last lines.
    const built = structuredClone(results);
    const bad = built.contenders.find((c) => c.name === 'bun-bad-ioredis')!;
    Object.assign(bad, {
      status: 'failed',
      reason: 'build of apps/bun failed (exit 1); see its output below',
      output: ['compiling', 'error: Module not found "../../scripts/build-node-app.ts"'],
    });
    expect(markdown(analyze(built), './')).toContain(
      'see its output below\n\n  ```\n  compiling\n  error: Module not found "../../scripts/build-node-app.ts"\n  ```',
    );
  });
  test('the README section is replaced between its markers only', () => {
    const readme = `# t\n${README_START}\nold\n${README_END}\nafter\n`;
    expect(spliceReadme(readme, 'new\n')).toBe(`# t\n${README_START}\nnew\n${README_END}\nafter\n`);
    expect(() => spliceReadme('# no markers', 'x')).toThrow(/markers/);
    // A write run's block: its own markers, naming its own results.
    const writes = { dir: 'latest-upsert', block: 'writes', shots: 'writes' };
    const { start, end } = readmeMarkers(writes);
    expect(start).toBe(
      '<!-- writes:start (generated by npm run report from results/latest-upsert/results.json; do not edit) -->',
    );
    const both = `${readme}${start}\nold\n${end}\n`;
    expect(spliceReadme(both, 'w\n', writes)).toBe(`${readme}${start}\nw\n${end}\n`);
    expect(() => spliceReadme(readme, 'w\n', writes)).toThrow(/no writes markers/);
  });
});

describe('picks: the fastest per question, read off the pairwise answers', () => {
  const answer = (a: string, b: string, verdict: string, ratio: number) => ({
    id: `${a} vs ${b}`,
    question: 'client: bun',
    a,
    b,
    verdict,
    ratio,
    lo: ratio * 0.9,
    hi: ratio * 1.1,
    level: 0.99,
    p: 0.001,
    pairs: 18,
    rounds: 9,
  });
  const withAnswers = (answers: unknown[]) =>
    ({
      ...results,
      contenders: ['bun-raw-bun-redis', 'bun-raw-ioredis', 'bun-raw-glide'].map((n) =>
        contender(n, 500, { client: n.split('-').slice(2).join('-') }),
      ),
      family: {
        questions: [
          {
            id: 'client: bun',
            kind: 'client',
            about: 'bun (raw server)',
            members: ['bun-raw-bun-redis', 'bun-raw-ioredis', 'bun-raw-glide'],
          },
        ],
        comparisons: [],
      },
      answers,
    }) as unknown as Results;

  test('one member beats each other directly: the fastest, decided against each', () => {
    const r = withAnswers([
      answer('bun-raw-bun-redis', 'bun-raw-ioredis', 'faster', 1.3),
      answer('bun-raw-bun-redis', 'bun-raw-glide', 'faster', 1.4),
      answer('bun-raw-ioredis', 'bun-raw-glide', 'undecided', 1.05),
    ]);
    expect(picks(analyze(r))).toEqual([
      'On bun (raw server): **bun-redis** is the fastest (decided faster than each of the other 2).',
    ]);
  });

  test('beaten through another: still the fastest, said so; two unbeaten: open or equal between them', () => {
    const chain = withAnswers([
      answer('bun-raw-bun-redis', 'bun-raw-ioredis', 'faster', 1.3),
      answer('bun-raw-bun-redis', 'bun-raw-glide', 'undecided', 1.4),
      answer('bun-raw-ioredis', 'bun-raw-glide', 'faster', 1.1),
    ]);
    expect(picks(analyze(chain))).toEqual([
      'On bun (raw server): **bun-redis** is the fastest (each of the other 2 was decided slower than another).',
    ]);
    const tie = withAnswers([
      answer('bun-raw-bun-redis', 'bun-raw-ioredis', 'undecided', 1.02),
      answer('bun-raw-bun-redis', 'bun-raw-glide', 'faster', 1.4),
      answer('bun-raw-ioredis', 'bun-raw-glide', 'equal', 1.01),
    ]);
    expect(picks(analyze(tie))).toEqual([
      'On bun (raw server): the fastest is one of **bun-redis** and **ioredis** (bun-redis against ioredis open); ' +
        'glide is decided slower than one of them.',
    ]);
    // One statement per pair: two unbeaten and equal are "the fastest", with their bound, not "not decided".
    const equal = withAnswers([
      answer('bun-raw-bun-redis', 'bun-raw-ioredis', 'equal', 1.02),
      answer('bun-raw-bun-redis', 'bun-raw-glide', 'faster', 1.4),
    ]);
    const [line] = picks(analyze(equal));
    expect(line).toMatch(
      /^On bun \(raw server\): the fastest are \*\*bun-redis\*\* and \*\*ioredis\*\*, equal within ±/,
    );
    expect(line).not.toContain('not decided');
  });
});
