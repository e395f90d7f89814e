import { describe, expect, test } from 'bun:test';
import { answersAgreement, CompareRefused } from '../../packages/harness/src/answers/agreement';
import { compare, type Comparison } from '../../packages/harness/src/answers/compare';
import { renderComparison } from '../../packages/harness/src/report/compare';
import type { Results, WindowRecord } from '../../packages/harness/src/model/results';
import { seededRandom, summarize } from '../../packages/harness/src/stats/stats';

/** A results.json with these contenders, each with `n` runs around its base req/s (seeded noise of ±4%). */
function fixture(bases: Record<string, number>, n: number, seed = 1): Results {
  const rand = seededRandom(seed);
  const contenders = Object.entries(bases).map(([name, base]) => {
    const runs = Array.from({ length: n }, (_, i) => ({ round: i + 1, rps: base * (0.96 + 0.08 * rand()) }));
    const points = [
      { connections: 50, rate: null, rate_spec: null, status: 'ok', runs, rps: summarize(runs.map((r) => r.rps)) },
    ];
    return {
      name,
      runtime: name.split('-')[0],
      status: 'ok',
      static: name.includes('static'),
      points,
      runs,
      rps: points[0]!.rps,
    };
  });
  return {
    schema: 2,
    settings: { workload: 'xrange' },
    environment: {
      cpu_model: 'Test CPU',
      logical_cpus: 2,
      node: 'v24',
      bun: '1.4.5',
      redis_server: 'Redis server v=7.0.15 sha=0',
      oha: 'oha 1.16.0',
      packages: { node: { redis: '6.3.1' } },
    },
    data: { entries: 339, body_bytes: 46028 },
    contenders,
  } as unknown as Results;
}

/**
 * The same runs, every req/s multiplied by `factor` (the whole machine faster or slower), or only those whose name
 * starts with `only`.
 */
function scaled(r: Results, factor: number, only?: string): Results {
  const copy = structuredClone(r);
  for (const c of copy.contenders)
    for (const run of c.points[0]!.runs) if (!only || c.name.startsWith(only)) run.rps *= factor;
  return copy;
}

const BASES = { 'a-raw-x': 600, 'b-raw-y': 450, 'c-hono-x': 520, 'd-next-route-static-x': 1800 };
/** Two runtimes of five dynamic contenders each (the default suite has 5 to 10). */
const RUNTIMES = {
  'bun-raw-x': 700,
  'bun-raw-y': 650,
  'bun-raw-z': 800,
  'bun-hono-x': 600,
  'bun-elysia-x': 720,
  'node-raw-x': 640,
  'node-raw-y': 330,
  'node-raw-z': 700,
  'node-express-x': 560,
  'node-fastify-x': 580,
};

describe('npm run compare', () => {
  test('a uniform factor flags no contender and is reported as the common-mode shift', () => {
    const a = fixture(BASES, 8);
    const cmp = compare(a, scaled(a, 1.32));
    expect(cmp.commonShift).toBeCloseTo(1.32, 9);
    for (const row of cmp.rows) {
      expect(row.flagged).toBe(false);
      expect(row.change).toBeCloseTo(0, 9);
    }
    const text = renderComparison(cmp);
    // A figure, not a claim that one machine is faster: no test stands behind it.
    expect(text).toContain(
      "Common-mode shift: B's req/s were 32.0% higher than A's " +
        '(geometric mean of the 3 dynamic contenders both runs share; a figure, not a tested difference',
    );
    expect(text).toContain('0 of 4 flagged as changed');
    expect(text).toContain('Rank intervals: the same in both runs');
    // Two runs that ranked different contenders: their ranks are not compared.
    const fewer = structuredClone(a);
    fewer.contenders = fewer.contenders.slice(0, 3);
    expect(compare(fewer, scaled(a, 1.32)).rankChanges).toBeNull();
    expect(renderComparison(compare(fewer, scaled(a, 1.32)))).toContain(
      'Rank intervals: not compared, the two runs ranked different contenders.',
    );
    // In absolute req/s the same pair differs everywhere.
    expect(compare(a, scaled(a, 1.32), 'absolute').rows.every((r) => r.flagged)).toBe(true);
  });

  test('a contender that really moved is flagged, with Holm-corrected p', () => {
    const a = fixture(BASES, 8);
    const cmp = compare(a, scaled(fixture(BASES, 8, 2), 1.5, 'b-raw-y'));
    const flagged = cmp.rows.filter((r) => r.flagged).map((r) => r.name);
    expect(flagged).toContain('b-raw-y');
    for (const r of cmp.rows) expect(r.pHolm).toBeGreaterThanOrEqual(r.p);
  });

  test("flagged by Holm's p, not the raw one; each interval at its Holm level, holding 0 when not flagged", () => {
    // A 4% move of one of ten (seeded): its raw p is under 5%, its Holm p is not.
    const cmp = compare(fixture(RUNTIMES, 9), scaled(fixture(RUNTIMES, 9, 2), 1.04, 'bun-raw-y'));
    const y = cmp.rows.find((r) => r.name === 'bun-raw-y')!;
    expect(y.p).toBeLessThan(0.05);
    expect(y.pHolm).toBeGreaterThanOrEqual(0.05);
    for (const r of cmp.rows) {
      expect(r.flagged).toBe(r.pHolm < 0.05);
      expect(r.lo <= 0 && r.hi >= 0).toBe(!r.flagged);
    }
  });

  test("a runtime that moved is its shift, not its contenders' changes; one that moved within it is flagged", () => {
    // A run measures each runtime in a block of its own.
    const a = fixture(RUNTIMES, 9);
    const bunSlower = scaled(fixture(RUNTIMES, 9, 3), 0.88, 'bun-');
    const cmp = compare(a, bunSlower);
    expect(cmp.rows.filter((r) => r.flagged)).toEqual([]);
    expect(cmp.shifts.map((x) => [x.group, x.shared])).toEqual([
      ['bun', 5],
      ['node', 5],
    ]);
    expect(cmp.shifts[0]!.shift).toBeGreaterThan(0.84);
    expect(cmp.shifts[0]!.shift).toBeLessThan(0.92);
    expect(renderComparison(cmp)).toMatch(
      new RegExp(
        /Runtime shifts, B against A \(each contender's index is taken within its runtime, so these are /.source +
          /not changes of its contenders\): bun -1\d\.\d% \(5 dynamic\), node [+-]\d\.\d% \(5 dynamic\)\./.source,
      ),
    );
    // Against the whole run's reference (one group, as --absolute takes it), the same runtime's move is a change of
    // each of its contenders.
    expect(
      compare(a, bunSlower, 'absolute')
        .rows.filter((r) => r.flagged)
        .map((r) => r.name)
        .sort(),
    ).toEqual(['bun-elysia-x', 'bun-hono-x', 'bun-raw-x', 'bun-raw-y', 'bun-raw-z']);
    // 10% off one contender, and nothing else: that one alone is flagged.
    const handicapped = compare(a, scaled(fixture(RUNTIMES, 9, 3), 1 / 1.1, 'node-raw-y'));
    expect(handicapped.rows.filter((r) => r.flagged).map((r) => r.name)).toEqual(['node-raw-y']);
    // B is A's very launches with node-raw-y 10% off: once flagged, its move is left out of the others' references
    // and of its runtime's shift (in, it would move each other node contender and the shift by about 2.4%).
    const only = compare(a, scaled(a, 1 / 1.1, 'node-raw-y'));
    expect(only.rows.filter((r) => r.flagged).map((r) => r.name)).toEqual(['node-raw-y']);
    for (const r of only.rows.filter((r) => r.name !== 'node-raw-y')) expect(Math.abs(r.change)).toBeLessThan(0.01);
    const nodeShift = only.shifts.find((x) => x.group === 'node')!.shift;
    expect(Math.abs(nodeShift - 1)).toBeLessThan(0.01);
  });

  test('one of a runtime of three moved: it alone is flagged, not its unmoved neighbours (seeded, 200 pairs)', () => {
    // bun-raw-x 30% faster, bun-hono-x and bun-elysia-x as they were: each neighbour's reference held the mover's
    // move until it left the shifts, and read −12%, flagged.
    const three = {
      'bun-raw-x': 700,
      'bun-hono-x': 600,
      'bun-elysia-x': 650,
      'node-raw-x': 640,
      'node-express-x': 560,
    };
    const one = compare(fixture(three, 8), scaled(fixture(three, 8, 2), 1.3, 'bun-raw-x'));
    expect(one.rows.filter((r) => r.flagged).map((r) => r.name)).toEqual(['bun-raw-x']);
    for (const r of one.rows.filter((r) => r.name !== 'bun-raw-x')) expect(Math.abs(r.change)).toBeLessThan(0.04);
    // Over 200 seeded pairs of runs, the whole machine 10% slower in B: with nothing else moved, a run flags any
    // contender at most 5% of the time; with bun-raw-x 15% faster, an unmoved one is flagged at most 5% of the time
    // (here 4 and 1 of 200; with every flagged contender left out at once, as before, 4 and 66).
    const bases = { ...three, 'node-fastify-x': 580, 'deno-raw-x': 600, 'deno-hono-x': 500 };
    let [none, other] = [0, 0];
    for (let k = 0; k < 200; k++) {
      const [a, b] = [fixture(bases, 6, 3 + 2 * k), fixture(bases, 6, 4 + 2 * k)];
      if (compare(a, scaled(b, 0.9)).rows.some((r) => r.flagged)) none++;
      const moved = compare(a, scaled(scaled(b, 0.9), 1.15, 'bun-raw-x'));
      if (moved.rows.some((r) => r.flagged && r.name !== 'bun-raw-x')) other++;
    }
    expect(none).toBeLessThanOrEqual(10);
    expect(other).toBeLessThanOrEqual(10);
  });

  test('a contender that moved reads its whole move: its own move is left out of its reference', () => {
    // B is A with node-raw-y 3% slower (too little to flag; a flagged one is left out of every reference anyway).
    const bases = {
      'node-raw-x': 640,
      'node-raw-y': 330,
      'node-raw-z': 700,
      'node-express-x': 560,
      'node-fastify-x': 580,
    };
    const a = fixture(bases, 9);
    const cmp = compare(a, scaled(a, 1 / 1.03, 'node-raw-y'));
    const y = cmp.rows.find((r) => r.name === 'node-raw-y')!;
    expect(y.flagged).toBe(false);
    // Counted in its own reference (a fifth of its move), it would read 1.03^(-4/5) − 1 = −2.3%.
    expect(y.change).toBeCloseTo(1 / 1.03 - 1, 9);
    // Each other one has it among its four references until it is flagged: a quarter of its move, the other way.
    for (const r of cmp.rows.filter((r) => r.name !== 'node-raw-y'))
      expect(Math.log(1 + r.change)).toBeCloseTo(Math.log(1.03) / 4, 9);
  });

  test("a run moving each contender a little beyond its launches' noise flags none; one that moved 30% is", () => {
    // Twelve contenders of one runtime; in B each is off by a factor drawn once for the run (±8%, seeded), as a
    // contender can run off its usual level in every launch of one run (docs/runs/answers-by-design.md), and
    // node-raw-k 30% slower.
    const bases = Object.fromEntries('abcdefghijkl'.split('').map((k, i) => [`node-raw-${k}`, 500 + 40 * i]));
    const a = fixture(bases, 9);
    const b = fixture(bases, 9, 4);
    const rand = seededRandom(7);
    for (const c of b.contenders) {
      const f = (c.name === 'node-raw-k' ? 1 / 1.3 : 1) * Math.exp(0.08 * (2 * rand() - 1));
      for (const run of c.points[0]!.runs) run.rps *= f;
    }
    const cmp = compare(a, b);
    expect(cmp.runEffect.on).toBe(12);
    expect(cmp.runEffect.sd).toBeGreaterThan(0.02);
    expect(cmp.rows.filter((r) => r.flagged).map((r) => r.name)).toEqual(['node-raw-k']);
    expect(renderComparison(cmp)).toMatch(
      new RegExp(
        /plus what a run adds beyond its launches' noise \(sd \d\.\d% /.source +
          /per change, from the 12 dynamic contenders' changes\)/.source,
      ),
    );
  });

  test("the change two runs could find: flagged at Holm's first step just past it, smaller with more launches", () => {
    const bases = {
      'node-raw-x': 640,
      'node-raw-y': 330,
      'node-raw-z': 700,
      'node-express-x': 560,
      'node-fastify-x': 580,
    };
    const a = fixture(bases, 9);
    const b = fixture(bases, 9, 5);
    const y = (cmp: ReturnType<typeof compare>) => cmp.rows.find((r) => r.name === 'node-raw-y')!;
    const d = y(compare(a, b)).detectable;
    expect(d).toBeGreaterThan(0);
    expect(d).toBeLessThan(0.2);
    // The most significant contender is tested at alpha / 5 first: node-raw-y's change set a little
    // beyond `detectable` is flagged, a little short of it is not (its variance does not move with it).
    const base = y(compare(a, b)).change;
    const moved = (to: number) => compare(a, scaled(b, (1 + to) / (1 + base), 'node-raw-y'));
    expect(y(moved(-d * 1.1)).flagged).toBe(true);
    expect(y(moved(-d * 0.9)).flagged).toBe(false);
    // Four times the launches a side: about half the detectable change.
    const more = y(compare(fixture(bases, 36), fixture(bases, 36, 5))).detectable;
    expect(more / d).toBeGreaterThan(0.35);
    expect(more / d).toBeLessThan(0.65);
    expect(renderComparison(compare(a, b))).toMatch(
      new RegExp(
        /What these runs could find: a change of ±\d+% in one contender is /.source +
          /flagged about half the time \(median over 5 contenders; ±\d+% to ±\d+%\)/.source,
      ),
    );
  });

  test("the prior follows within-launch noise: noisy pages neither borrow the servers' variance nor spoil it", () => {
    // Eleven raw servers whose noise grows from 1% to 3% (nine launches), and three Next.js pages
    // twenty times as noisy with three launches each, as the default suite has them. One server and
    // one page move +20% in B.
    const names = [
      ...Array.from({ length: 11 }, (_, i) => `node-raw-q${i}`),
      ...['a', 'b', 'x'].map((p) => `node-next-route-dynamic-${p}`),
    ];
    const sigma = (n: string, i: number) => (n.includes('next') ? 0.2 : 0.01 + 0.002 * i);
    const windowed = (seed: number, moved: number): Results => {
      const rand = seededRandom(seed);
      const z = () => 2 * rand() - 1;
      const r = fixture(Object.fromEntries(names.map((n) => [n, 500])), 9, seed);
      r.contenders.forEach((c, i) => {
        const s = sigma(c.name, i);
        const m = ['node-next-route-dynamic-x', 'node-raw-q0'].includes(c.name) ? moved : 1;
        c.points[0]!.runs = c.points[0]!.runs.slice(0, c.name.includes('next') ? 3 : 9).map((run) => {
          const level = 500 * m * Math.exp(s * z());
          const swing = 2 * s * z();
          return {
            ...run,
            rps: level,
            windows: [{ rps: level * Math.exp(swing) }, { rps: level * Math.exp(-swing) }] as WindowRecord[],
          };
        });
      });
      return r;
    };
    const cmp = compare(windowed(1, 1), windowed(2, 1.2));
    const row = (c: Comparison, n: string) => c.rows.find((r) => r.name === n)!;
    expect(cmp.prior.trend).toBe(true);
    expect(row(cmp, 'node-raw-q0').flagged).toBe(true);
    expect(row(cmp, 'node-next-route-dynamic-x').flagged).toBe(false);
    expect(row(cmp, 'node-next-route-dynamic-x').detectable).toBeGreaterThan(5 * row(cmp, 'node-raw-q0').detectable);
    expect(renderComparison(cmp)).toContain(
      "per launch at the mean within-launch noise, following each contender's, worth",
    );
    // The same launch means without their windows: no noise to follow, so one prior for all. The
    // pages' spread makes it worth about one df, and the quiet servers' intervals widen.
    const bare = (r: Results) => {
      const copy = structuredClone(r);
      for (const c of copy.contenders)
        for (const run of c.points[0]!.runs) delete (run as { windows?: unknown }).windows;
      return copy;
    };
    const flat = compare(bare(windowed(1, 1)), bare(windowed(2, 1.2)));
    expect(flat.prior.trend).toBe(false);
    expect(row(flat, 'node-raw-q0').change).toBeCloseTo(row(cmp, 'node-raw-q0').change, 9);
    expect(flat.prior.d0!).toBeLessThan(cmp.prior.d0! / 4);
    expect(row(flat, 'node-raw-q5').detectable).toBeGreaterThan(row(cmp, 'node-raw-q5').detectable);
  });

  test('says so when the run counts can never give a significant difference', () => {
    // One launch a side: no contender has a variance of its own, and none can lend one.
    const a = fixture(BASES, 1);
    const cmp = compare(a, scaled(fixture(BASES, 1, 9), 2, 'a-raw-x'));
    expect(cmp.rows.some((r) => r.flagged)).toBe(false);
    expect(cmp.tooFewRuns).toBe(
      '4 contender(s) have one launch in each run and no other contender ' +
        'lends a variance: need ≥ 2 launches on a side; measure more rounds',
    );
    expect(renderComparison(cmp)).toContain('Too few runs:');
    // Three launches a side and a doubled contender: the moderated t flags it, and only it (in req/s: a
    // doubled contender also moves the relative index of every other one through the shared reference).
    const three = compare(fixture(BASES, 3), scaled(fixture(BASES, 3, 9), 2, 'a-raw-x'), 'absolute');
    expect(three.rows.filter((r) => r.flagged).map((r) => r.name)).toEqual(['a-raw-x']);
  });

  test('relative to the others needs others: two runs of one contender are refused, not read as a sure change', () => {
    const one = { 'a-raw-x': 600 };
    expect(() => compare(fixture(one, 3), scaled(fixture(one, 3, 9), 0.9))).toThrow(
      /^A and B share 1 measured contender: a change relative to the others' shift needs 2 or more; give --absolute/,
    );
    // --absolute: its move in req/s, tested on its launches.
    const abs = compare(fixture(one, 3), scaled(fixture(one, 3, 9), 0.9), 'absolute');
    expect(abs.rows.map((r) => r.name)).toEqual(['a-raw-x']);
    expect(abs.rows[0]!.hi - abs.rows[0]!.lo).toBeGreaterThan(0.01);
    // Two of one runtime and one of another: the lone one is not its own reference (all three are one group).
    const three = { 'a-raw-x': 600, 'a-hono-x': 500, 'b-raw-y': 450 };
    const aa = compare(fixture(three, 3), fixture(three, 3, 9));
    const lone = aa.rows.find((r) => r.name === 'b-raw-y')!;
    expect([lone.flagged, lone.hi - lone.lo > 0.01]).toEqual([false, true]);
    // The whole machine 20% slower in B: the lone one moved with the others, which its reference follows.
    const slower = compare(fixture(three, 3), scaled(fixture(three, 3, 9), 0.8));
    const loneSlower = slower.rows.find((r) => r.name === 'b-raw-y')!;
    expect(loneSlower.flagged).toBe(false);
    expect(Math.abs(loneSlower.change)).toBeLessThan(0.05);
  });

  test('refuses results from different machines, software or data, naming the difference', () => {
    const a = fixture(BASES, 5);
    const otherMachine = structuredClone(a);
    otherMachine.environment.cpu_model = 'AMD EPYC 7B13';
    expect(() => compare(a, otherMachine)).toThrow(CompareRefused);
    expect(() => compare(a, otherMachine)).toThrow(/CPU model: "Test CPU" in A, "AMD EPYC 7B13" in B/);
    const otherClient = structuredClone(a);
    otherClient.environment.packages.node!.redis = '6.4.0';
    expect(() => compare(a, otherClient)).toThrow(/redis in apps\/node: 6\.3\.1 in A, 6\.4\.0 in B/);
    const otherData = structuredClone(a);
    otherData.data.entries = 3390;
    expect(() => compare(a, otherData)).toThrow(/stream entries: 339 in A, 3390 in B/);
    const oneSession = structuredClone(a);
    oneSession.environment.children = { session: 'harness', sched_autogroup: true };
    expect(() => compare(a, oneSession)).toThrow(/child sessions: "own" in A, "harness" in B/);
    // The rest of the machine's key, and what the load asks.
    const variants: [string, (r: typeof a) => void, RegExp][] = [
      ['arm64', (r) => (r.environment.arch = 'arm64'), /architecture: "x64" in A, "arm64" in B/],
      ['connections', (r) => (r.settings.connections = [10]), /connections: \[50\] in A, \[10\] in B/],
      ['keep-alive', (r) => ((r.settings as any).keep_alive = false), /keep-alive: true in A, false in B/],
      ['placement', (r) => (r.settings.placement = { ...r.settings.placement, name: 'split' }), /placement: /],
      ['CPU count', (r) => (r.environment.logical_cpus = 4), /CPU count: 2 in A, 4 in B/],
      ['rates', (r) => (r.settings.rates = ['50%']), /rates: \[\] in A, \["50%"\] in B/],
      ['profile', (r) => (r.settings.profile = 'seed'), /profile: "default" in A, "seed" in B/],
      ['Redis TLS', (r) => (r.settings.redis_tls = true), /Redis over TLS: false in A, true in B/],
      ['compression', (r) => (r.settings.compression = 'oha default'), /compression: false in A, "oha default" in B/],
      [
        'Redis version',
        (r) => (r.environment.redis_server = 'Redis server v=7.2.4 sha=1'),
        /Redis: "Redis server v=7\.0\.15" in A, "Redis server v=7\.2\.4" in B/,
      ],
      ['Bun', (r) => (r.environment.bun = '1.4.6'), /Bun: "1\.4\.5" in A, "1\.4\.6" in B/],
      ['Node', (r) => (r.environment.node = 'v25'), /Node: "v24" in A, "v25" in B/],
      ['node20', (r) => (r.environment.runtimes.node20 = 'v20.2.0'), /node20: "v20\.1\.0" in A, "v20\.2\.0" in B/],
      ['deno', (r) => (r.environment.runtimes.deno = '2.1.0'), /deno: "2\.0\.0" in A, "2\.1\.0" in B/],
      ['oha', (r) => (r.environment.oha = 'oha 1.17.0'), /oha: "oha 1\.16\.0" in A, "oha 1\.17\.0" in B/],
      ['workload', (r) => (r.settings.workload = 'upsert'), /workload: "xrange" in A, "upsert" in B/],
      ['Redis RTT', (r) => (r.settings.redis_rtt_ms = 5), /Redis RTT \(ms\): 0 in A, 5 in B/],
      ['body bytes', (r) => (r.data.body_bytes = 46029), /body bytes: 46028 in A, 46029 in B/],
    ];
    const base = structuredClone(a);
    base.settings.connections = [50];
    // Both record the other runtimes' versions (results before that record have none to compare).
    base.environment.runtimes = { node20: 'v20.1.0', deno: '2.0.0' };
    expect(() => compare(base, structuredClone(base))).not.toThrow();
    for (const [, change, message] of variants) {
      const b = structuredClone(base);
      change(b);
      expect(() => compare(base, b)).toThrow(message);
    }
    // Two host CPUs recorded behind one name are two machines; one recorded, the other not, is the name's one machine.
    const [cpu167, cpu207] = [structuredClone(a), structuredClone(a)];
    cpu167.environment.cpu_id = 'GenuineIntel family 6 model 167 stepping 1, L3 491520K';
    cpu207.environment.cpu_id = 'GenuineIntel family 6 model 207 stepping 2, L3 307200K';
    expect(() => compare(cpu167, cpu207)).toThrow(/host CPU: "GenuineIntel family 6 model 167 stepping 1" in A/);
    expect(() => compare(a, cpu167)).not.toThrow();
  });

  test('results written before data.servers existed are read as that older format: one Redis, not refused', () => {
    const older = fixture(BASES, 5);
    const newer = structuredClone(older);
    newer.data.servers = [{ name: 'redis', version: '7.0.15' } as any];
    expect(() => compare(older, newer)).not.toThrow();
    const valkey = structuredClone(newer);
    valkey.data.servers = [{ name: 'valkey', version: '9.1.2' } as any];
    expect(() => compare(newer, valkey)).toThrow(/servers: \["redis 7\.0\.15"\] in A, \["valkey 9\.1\.2"\] in B/);
  });
});

describe('answers both runs gave (the A/A check)', () => {
  test('the same, differing (decided in one only) and flipped (faster both times, opposite ways) told apart', () => {
    const answer = (id: string, verdict: string, ratio: number) => ({
      id,
      question: 'q',
      a: id.split(' vs ')[0],
      b: id.split(' vs ')[1],
      verdict,
      ratio,
      lo: ratio * 0.9,
      hi: ratio * 1.1,
    });
    const a = {
      answers: [
        answer('x vs y', 'faster', 1.3),
        answer('x vs z', 'undecided', 1.05),
        answer('y vs z', 'faster', 0.8),
        answer('w vs x', 'equal', 1.0),
      ],
    } as unknown as Results;
    const b = {
      answers: [answer('x vs y', 'faster', 1.25), answer('x vs z', 'faster', 1.2), answer('y vs z', 'faster', 1.3)],
    } as unknown as Results;
    expect(answersAgreement(a, b)).toEqual({
      both: 3,
      same: 1,
      differ: ['x vs z (undecided → faster)'],
      flipped: ['y vs z'],
    });
    expect(answersAgreement(a, a)).toEqual({ both: 4, same: 4, differ: [], flipped: [] });
  });
});
