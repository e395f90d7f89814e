// The bench command end to end on real contenders, as a user runs it.
import { describe, expect, test } from 'bun:test';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compare } from '../../packages/harness/src/answers/compare';
import { renderComparison } from '../../packages/harness/src/report/compare';
import { readResults } from '../../packages/harness/src/model/results-file';
import { CHROMIUM_PROCESS, resultsIn, runCli, settle } from '../helpers/cli';

const real = { BENCH_APPS_DIR: '' }; // the project's own apps, not the fakes
const LAT = ['p10', 'p25', 'p50', 'p75', 'p90', 'p95', 'p99', 'p99_9'];

describe('npm run bench', () => {
  test('--list: the default suite, + HTTP ceilings with --ceilings, --matrix all, --profile seed the 14', async () => {
    const lines = async (args: string[]) =>
      (await runCli(['--list', ...args], { env: real })).stdout.trim().split('\n');
    const suite = await lines([]);
    expect(suite).toHaveLength(29); // 26, the handicapped twin and node-redis's two decode twins on Node
    expect(suite.filter((n) => n.endsWith('-handicap'))).toEqual(['node-raw-ioredis-handicap']);
    expect(suite.filter((n) => /-(bytes|rawreply)$/.test(n))).toEqual([
      'node-raw-node-redis-bytes',
      'node-raw-node-redis-rawreply',
    ]);
    const withCeilings = await lines(['--ceilings']);
    expect(withCeilings.filter((n) => !n.endsWith('-precomputed'))).toEqual(suite);
    // The HTTP ceiling of each stack in it.
    expect(withCeilings.filter((n) => n.endsWith('-precomputed'))).toHaveLength(11);
    const matrix = await lines(['--matrix']);
    expect(matrix.length).toBeGreaterThan(90);
    expect(matrix).toContain('node20-raw-node-redis');
    expect(matrix).toContain('bun-raw-node-redis-resp2');
    expect(await lines(['--profile', 'seed'])).toHaveLength(14);
    // --matrix has its ceilings on: the picked stack's HTTP ceiling comes with it.
    expect(await lines(['--matrix', '--where', 'runtime=deno,client=ioredis,autopipeline=on'])).toEqual([
      'deno-raw-ioredis-autopipeline',
      'deno-raw-precomputed',
    ]);
  });

  test('a quick --matrix run: framework × client grid, settings, what to pick, ceilings, efficiency', async () => {
    const run = await runCli([
      '--matrix',
      '--only',
      'bun-raw-node-redis*,bun-raw-ioredis*,bun-raw-precomputed,bun-fake-other-ioredis',
      '--runs',
      '2',
      '--duration',
      '300ms',
      '--warmup',
      '0s',
    ]);
    expect(run.code).toBe(0);
    const { dir, json } = resultsIn(run.outDir);
    expect(json.settings.suite).toBe('matrix');
    expect(json.schedule.ceilings_s).toBeGreaterThan(0); // the time the ceilings added, recorded
    // --only with the ceilings on (--matrix): each picked stack's HTTP ceiling too, which its breakdown needs.
    expect(json.contenders.map((c: any) => c.name).sort()).toEqual([
      'bun-fake-other-ioredis',
      'bun-fake-other-precomputed',
      'bun-raw-ioredis',
      'bun-raw-ioredis-autopipeline',
      'bun-raw-ioredis-direct',
      'bun-raw-node-redis',
      'bun-raw-node-redis-direct',
      'bun-raw-precomputed',
    ]);
    // Ceilings: Redis alone before and after the rounds; the raw server's HTTP ceiling, not ranked, no Redis read per
    // request.
    expect(json.ceilings.redis).toHaveLength(2);
    for (const c of json.ceilings.redis)
      expect(c).toMatchObject({ command: 'XRANGE OPTIONS:test:STREAM - +', connections: 50 });
    for (const c of json.ceilings.redis) expect(c.rps).toBeGreaterThan(0);
    const http = json.contenders.find((c: any) => c.name === 'bun-raw-precomputed');
    expect(http).toMatchObject({ ceiling: 'http', status: 'ok', redis_calls_per_req: 0 });
    expect(json.reference.members).not.toContain('bun-raw-precomputed');
    expect(http.runs).toHaveLength(1); // a denominator, measured in the first round only
    // The client ceiling: each runtime × client of the run alone, no HTTP, every body the golden length.
    expect(json.ceilings.client.map((c: any) => `${c.runtime} ${c.client}`).sort()).toEqual([
      'bun ioredis',
      'bun node-redis',
    ]);
    for (const c of json.ceilings.client) expect(c.rps).toBeGreaterThan(0);
    const eff = json.contenders.find((c: any) => c.name === 'bun-raw-ioredis').efficiency;
    // The lowest of: the median of the two Redis measurements, the HTTP ceiling, the client ceiling.
    const redisMedian = (json.ceilings.redis[0].rps + json.ceilings.redis[1].rps) / 2;
    const client = json.ceilings.client.find((c: any) => c.runtime === 'bun' && c.client === 'ioredis');
    expect(eff.ceiling_rps).toBeCloseTo(Math.min(http.rps.median, redisMedian, client.rps), 6);
    expect(eff.value).toBeCloseTo(
      json.contenders.find((c: any) => c.name === 'bun-raw-ioredis').rps.median / eff.ceiling_rps,
      6,
    );
    expect(json.contenders.find((c: any) => c.name === 'bun-raw-ioredis-autopipeline')).toMatchObject({
      tuned: ['autopipeline'],
      settings: { autopipeline: 'on', transform: 'plain' },
      status: 'ok',
    });
    const md = readFileSync(join(dir, 'results.md'), 'utf8');
    // The grid: one row per framework (fastest first), one column per client, a median in every measured cell.
    expect(md).toContain('**Framework × client, per runtime**');
    expect(md).toMatch(/\| bun \| node-redis \| ioredis \|/);
    expect(md).toMatch(/\| raw \| \d+ \(\d+(–\d+)?\) \| \d+ \(\d+(–\d+)?\) \|/);
    expect(md).toMatch(/\| fake other \| {2}\| \d+ \(\d+(–\d+)?\) \|/);
    // Settings: each tuned contender against its default twin, paired by round and window, with its answer.
    expect(md).toContain('**Settings: each against the same stack with defaults**');
    for (const [setting, client] of [
      ['autopipeline', 'ioredis'],
      ['direct', 'ioredis'],
      ['direct', 'node-redis'],
    ]) {
      expect(md).toMatch(
        new RegExp(
          `\\| ${setting} \\| bun \\| raw \\| ${client} \\| [\\d.]+ \\([\\d.]+–([\\d.]+|∞), ` +
            '[\\d.]+%\\) \\| 2 \\| (faster|slower|equal within ±\\d+%|open) \\|',
        ),
      );
    }
    // What to pick: every comparison of the family answered in words, with its interval.
    expect(md).toContain('**What to pick**');
    expect(json.family.comparisons.length).toBe(json.answers.length);
    expect(md).toMatch(/On bun \(raw server\), (node-redis|ioredis) (is faster than|serves|and|against) /);
    expect(md).toMatch(/On bun \+ ioredis, (fake other|the raw server) (is faster than|serves|and|against) /);
    expect(md).toContain('**Ceilings, measured in this run**');
    expect(md).toMatch(/\| Redis alone: redis-benchmark `XRANGE OPTIONS:test:STREAM - \+`, c=50 \| \d+ \|/);
    expect(md).toMatch(/\| HTTP: bun raw \(bun-raw-precomputed\) \| \d+ \|/);
    expect(md).toMatch(/\| client: bun \+ ioredis, no HTTP \| \d+ \|/);
    // The breakdown: the raw server's HTTP ceiling and its client ceiling were measured, so each raw contender has one.
    expect(json.contenders.find((c: any) => c.name === 'bun-raw-node-redis').breakdown).toMatchObject({
      measured_us: expect.any(Number),
      predicted_rps: expect.any(Number),
    });
    expect(md).toMatch(/\*\*Cost breakdown per request\*\*/);
    expect(md).toMatch(
      /\| bun-raw-ioredis-direct \| \d+ \| -?\d+ \| \d+ \| \d+ \| -?\d+ \| \d+ \| \d+ \| \d+ \| \d+% \|/,
    );
    // Its chart, breakdown.png, is drawn from the same figures (tests/unit/charts-layout.test.ts, on a published run);
    // a run without --report text draws every chart it has (the "writes every key" test below).
    const efficiency = md.match(
      /\| bun-raw-ioredis \| \d+ \| (Redis alone|bun-raw-precomputed|bun \+ ioredis, no HTTP) \| \d+ \| ([^|]+) \|/,
    );
    // A ceiling's one measurement can run slow and fall below the contender: its cell says so with a †.
    expect(efficiency?.[2]).toMatch(/^[\d.]+%( \(above it: †\))?$/);
    expect(md).not.toMatch(/\| \d+(–\d+)? \| bun-raw-precomputed/); // never ranked
    expect(await settle(run.seen)).toEqual([]);
  });

  test('--only node-raw-node-redis --runs 3 --duration 1s --warmup 1s writes every key; X vs X is all ~', async () => {
    // As a user runs it: no --report flag, so the full report (its charts, and report.png from a headless browser).
    const run = await runCli(['--only', 'node-raw-node-redis', '--runs', '3', '--duration', '1s', '--warmup', '1s'], {
      env: real,
      fullReport: true,
    });
    expect(run.code).toBe(0);
    const { dir, json } = resultsIn(run.outDir);
    expect(json.complete).toBe(true);
    const env = json.environment;
    for (const k of [
      'cpu_model',
      'logical_cpus',
      'memory_gb',
      'kernel',
      'load_average_1m_before',
      'node',
      'bun',
      'redis_server',
      'oha',
      'git_commit',
      'git_dirty',
      'packages',
    ])
      expect(env).toHaveProperty(k);
    expect(env.packages.node.redis).toMatch(/^\d+\.\d+\.\d+$/);
    for (const k of [
      'placement',
      'keep_alive',
      'compression',
      'connections',
      'duration_s',
      'windows',
      'warmup_s',
      'runs',
      'seed',
      'target_ci_pct',
    ])
      expect(json.settings).toHaveProperty(k);

    const c = json.contenders[0];
    expect(c).toMatchObject({
      name: 'node-raw-node-redis',
      runtime: 'node',
      framework: 'raw',
      client: 'node-redis',
      variant: null,
      status: 'ok',
    });
    expect(c.rps.min).toBeLessThanOrEqual(c.rps.median);
    expect(c.rps.max).toBeGreaterThanOrEqual(c.rps.median);
    expect(c.rps.ci).toEqual({ lo: c.rps.min, hi: c.rps.max, level: 0.75 }); // 3 runs: [min, max] covers 75%
    expect(c.relative.median).toBeCloseTo(1, 12); // the only dynamic contender is its own reference
    for (const p of LAT) expect(c.latency_ms[p]).toBeGreaterThan(0);
    expect(c.cpu_us_per_req).toBeGreaterThan(0);
    expect(c.rss_mb).toBeGreaterThan(10);
    expect(Math.abs(c.redis_calls_per_req - 1)).toBeLessThanOrEqual(0.02);
    expect(c.redis_us_per_call).toBeGreaterThan(0);
    expect(typeof c.loadgen_saturated).toBe('boolean');
    expect(c.errors).toEqual({ non_2xx: 0, aborted: 0, other: 0 });
    expect(c.runs).toHaveLength(3);
    for (const r of c.runs) {
      expect(existsSync(join(dir, r.raw))).toBe(true);
      expect(r.harness_cpu_pct).toBeGreaterThanOrEqual(0);
      expect(r.total_bytes).toBe(r.expected_bytes * r.responses); // every response the verified body's size
      expect(r.after_check).toBe('ok');
    }
    expect(new Set(c.runs.map((r: any) => r.pid)).size).toBe(3);
    for (const f of ['results.md', 'report.html', 'req-sec.png', 'server-latency.png', 'report.png'])
      expect(existsSync(join(dir, f))).toBe(true);
    expect(readFileSync(join(dir, 'results.md'), 'utf8')).toContain('![req-sec.png](./req-sec.png)');
    expect(run.seen.some((p) => CHROMIUM_PROCESS.test(p.cmd))).toBe(true);
    expect(existsSync(join(dir, 'relative-index.png'))).toBe(false); // it only repeated req-sec.png
    expect(existsSync(join(dir, 'next-latency.png'))).toBe(false); // a latency chart per chart group present only
    expect(readFileSync(join(dir, 'results.md'), 'utf8')).toContain('| 1 | node-raw-node-redis |');
    expect(existsSync(join(run.outDir, 'latest'))).toBe(false); // --only: not published

    const x = readResults(join(dir, 'results.json'));
    // One contender is its own reference: relative to the others it is refused; its own req/s compare.
    expect(() => compare(x, x)).toThrow(/^A and B share 1 measured contender/);
    const cmp = compare(x, x, 'absolute');
    expect(cmp.rows).toHaveLength(1);
    expect(cmp.rows[0]!.flagged).toBe(false);
    expect(cmp.commonShift).toBe(1);
    expect(cmp.rows[0]!.change).toBeCloseTo(0, 9);
    expect(renderComparison(cmp)).toContain('0 of 1 flagged as changed');
    expect(await settle(run.seen)).toEqual([]);
  });

  test('--profile seed: 200 requests a run, 3 runs, the third the headline; --report text draws nothing', async () => {
    const run = await runCli(['--only', 'bun-raw-node-redis', '--profile', 'seed', '--report', 'text'], { env: real });
    expect(run.code).toBe(0);
    const { dir, json } = resultsIn(run.outDir);
    // --report text: results.json, results.md and report.html; no PNG, no image link, no browser started.
    expect(readdirSync(dir).filter((f) => f.endsWith('.png'))).toEqual([]);
    for (const f of ['results.json', 'results.md', 'report.html']) expect(existsSync(join(dir, f))).toBe(true);
    expect(readFileSync(join(dir, 'results.md'), 'utf8')).not.toContain('.png)');
    expect(run.seen.some((p) => CHROMIUM_PROCESS.test(p.cmd))).toBe(false);
    const c = json.contenders[0];
    expect(c.runs).toHaveLength(3);
    for (const r of c.runs) expect(r.ok).toBe(200);
    expect(c.rps.median).toBe(c.runs[2].rps);
    expect(c.latency_ms.p50).toBe(c.runs[2].latency_ms.p50);
  });

  test('a connections sweep and an open-loop point at 50% of the measured max', async () => {
    const run = await runCli(
      [
        '--only',
        'bun-raw-node-redis',
        '--connections',
        '1,8',
        '--rate',
        '50%',
        '--runs',
        '1',
        '--duration',
        '1s',
        '--warmup',
        '0s',
      ],
      { env: real },
    );
    expect(run.code).toBe(0);
    const c = resultsIn(run.outDir).json.contenders[0];
    expect(c.points.map((p: any) => [p.connections, p.rate_spec])).toEqual([
      [1, null],
      [8, null],
      [1, '50%'],
    ]);
    expect(c.points[2].rate).toBe(Math.round(c.points[0].rps.median * 0.5));
    for (const p of c.points) expect(p.status).toBe('ok');
  });
});
