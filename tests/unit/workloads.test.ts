// The workload seam (workloads/): every name --workload takes has a module, and each
// module's pure parts (the gate rules, what oha sends, the flags, the settings, the ceilings)
// say what the harness used to decide by testing the name.
import { describe, expect, test } from 'bun:test';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WORKLOADS, WRITE_WORKLOADS } from '@bench/stream';
import { placeOf, WORKLOAD_MODULES, workloadOf } from '../../packages/harness/src/workloads';
import { WRITE_ROUTE_IGNORES } from '../../packages/harness/src/workloads/types';
import { readResults } from '../../packages/harness/src/model/results-file';
import { CLUSTER_SERVERS } from '../../packages/harness/src/model/servers';
import { loadSuite } from '../../packages/harness/src/model/manifests';
import { ROOT } from '../../packages/harness/src/system/paths';
import { dataOf, type RunRecord, upgradeRecord } from '../../packages/harness/src/model/results';

const ctx = {
  workload: WORKLOAD_MODULES.xrange,
  placement: { name: 'none', app: null, redis: null, loadgen: null },
  redis: { url: 'redis://127.0.0.1:1' },
  runDir: '/tmp',
} as never;
const URL = 'http://127.0.0.1:3000/';

describe('the registry', () => {
  test('nothing in the harness outside workloads/ names the write workload: its module declares it all', () => {
    const src = 'packages/harness/src';
    const files = (readdirSync(src, { recursive: true }) as string[]).filter(
      (f) => f.endsWith('.ts') && !f.startsWith('workloads/'),
    );
    expect(files.length).toBeGreaterThan(100);
    // The write workloads, from the registry: those whose route is a write route's (upsert, xadd-trim).
    const writes = Object.entries(WORKLOAD_MODULES).flatMap(([name, w]) =>
      w.ignores === WRITE_ROUTE_IGNORES ? [name] : [],
    );
    expect(writes.sort()).toEqual([...WRITE_WORKLOADS].sort());
    const named = (f: string, text = readFileSync(join(src, f), 'utf8')) => writes.filter((w) => text.includes(w));
    expect(files.flatMap((f) => named(f).map((w) => `${f}: ${w}`))).toEqual([]);
    // The live workload in code (its comments aside): not a string, a flag or a summary of its own outside its module.
    const code = (f: string) =>
      readFileSync(join(src, f), 'utf8')
        .split('\n')
        .filter((l) => !/^\s*(\/\/|\*|\/\*)/.test(l))
        .join('\n');
    expect(files.filter((f) => /'live'|write-rate|writeRate/.test(code(f)) && f !== 'system/progress.ts')).toEqual([]);
  });
  test("no app names a workload: each mounts @bench/stream's one route (routeFromEnv, or routeFor in Next.js)", () => {
    const sources = (readdirSync('apps', { recursive: true }) as string[]).filter(
      (f) => /\.(ts|tsx)$/.test(f) && !/(^|\/)(node_modules|dist|\.next)\//.test(f) && !f.endsWith('.d.ts'),
    );
    const text = (f: string) => readFileSync(join('apps', f), 'utf8');
    expect(sources.filter((f) => /WORKLOAD ?[=!]==|upsert/.test(text(f)))).toEqual([]);
    const apps = readdirSync('apps').filter((a) => a !== 'next');
    expect(apps.length).toBeGreaterThanOrEqual(8);
    for (const app of apps)
      expect([app, sources.some((f) => f.startsWith(`${app}/`) && text(f).includes('routeFromEnv()'))]).toEqual([
        app,
        true,
      ]);
  });
  test('every workload --workload takes has a module, under its own name', () => {
    expect(Object.keys(WORKLOAD_MODULES).sort()).toEqual([...WORKLOADS].sort());
    for (const w of WORKLOADS) expect(workloadOf(w).name).toBe(w);
  });
});

describe('the gate rules', () => {
  test('the command counted once per response: the read, or the write strategy', () => {
    expect(workloadOf('xrange').rules.command('lua')).toBe('xrange');
    expect(workloadOf('xrange-count').rules.command('lua')).toBe('xrange');
    expect(workloadOf('xrevrange-count').rules.command('lua')).toBe('xrevrange');
    expect(workloadOf('xread').rules.command('lua')).toBe('xread');
    expect(workloadOf('live').rules.command('lua')).toBe('xrange');
    expect(workloadOf('upsert').rules.command('lua')).toBe('evalsha');
    expect(workloadOf('upsert').rules.command('function')).toBe('fcall');
    expect(workloadOf('upsert').rules.command('watch')).toBe('watch');
    expect(workloadOf('upsert').rules.command('ping')).toBe('ping');
  });
  test("the gate's message names the command", () => {
    expect(workloadOf('xread').rules.label).toBe('XREAD');
    expect(workloadOf('xrevrange-count').rules.label).toBe('XREVRANGE');
    expect(workloadOf('live').rules.label).toBe('XRANGE');
    expect(workloadOf('upsert').rules.label).toBe("the write strategy's");
  });
  test('too many calls per response is gated for the fixed reads only', () => {
    for (const w of WORKLOADS) expect(workloadOf(w).rules.gateTooMany).toBe(w !== 'live' && w !== 'upsert');
  });
});

describe('what oha sends', () => {
  test('the reads: GET the route, nothing beside oha without a writer', () => {
    for (const w of ['xrange', 'xread', 'xrange-count', 'xrevrange-count', 'live'] as const) {
      expect(workloadOf(w).request(ctx, URL)).toEqual({ url: URL });
    }
    expect(workloadOf('xrange').around(ctx, URL, 0)).toBeNull();
    expect(workloadOf('live').around(ctx, URL, 0)).toBeNull();
  });
  test('upsert: POSTs into a key space drawn by a regex, apart from any window', () => {
    const t = workloadOf('upsert').request({ ...(ctx as object), own: { keys: 1000 } } as never, URL);
    expect(t.request).toMatchObject({ method: 'POST', randRegex: true });
    expect(t.url).toMatch(/^http:\/\/127\.0\.0\.1:3000\/items\/\w+k\[0-9\]\{3\}$/);
    expect(t.request!.body).toStartWith('{');
  });
});

describe('flags, settings, servers and ceilings', () => {
  test('the flags each owns beyond the common ones', () => {
    expect(workloadOf('xrange').flags).toEqual({});
    expect(Object.keys(workloadOf('live').flags)).toEqual(['write-rate', 'restart-redis', 'max-staleness']);
    expect(Object.keys(workloadOf('upsert').flags)).toEqual(['keys']);
  });
  test('what its flags add to the settings in results.json, under its name', () => {
    expect(workloadOf('xrange').options({})).toEqual({ settings: null, sweep: null });
    const live = { 'write-rate': '10', 'max-staleness': '50ms', 'restart-redis': true };
    expect(workloadOf('live').options(live).settings).toEqual({
      write_rate: 10,
      max_staleness_ms: 50,
      restart_redis: true,
    });
    expect(workloadOf('live').options({ ...live, 'restart-redis': undefined }).settings).toEqual({
      write_rate: 10,
      max_staleness_ms: 50,
    });
    expect(workloadOf('upsert').options({})).toEqual({ settings: { keys: 100 }, sweep: null });
  });
  test('the writes run on the private Redis only, and without --target', () => {
    for (const w of ['xrange', 'xread', 'xrange-count', 'xrevrange-count'] as const) {
      expect(workloadOf(w).privateRedis).toBeNull();
      expect(workloadOf(w).noTarget).toBeNull();
    }
    expect(workloadOf('live').privateRedis).toMatch(/--workload live .* unset REDIS_URL/);
    expect(workloadOf('upsert').privateRedis).toMatch(/--workload upsert .* unset REDIS_URL/);
    expect(workloadOf('live').noTarget).toMatch(/^--workload live/);
    expect(workloadOf('upsert').noTarget).toMatch(/^--workload upsert/);
  });
  test('live, upsert and xadd-trim measure suites of their own; xadd-trim by a rule no manifest names', () => {
    expect(workloadOf('xrange').suite).toBeNull();
    expect(workloadOf('live').suite?.holds).toBe('each raw server with the caches');
    expect(workloadOf('upsert').suite?.holds).toBe('each raw server with the write strategies');
    const { contenders } = loadSuite(join(ROOT, 'apps'));
    const trim = contenders.filter((c) => workloadOf('xadd-trim').suite!.pick!(c)).map((c) => c.name);
    // Each runtime's own server with each client, at the defaults (not Node 20, a tuned twin or a ceiling).
    expect(trim.sort()).toEqual(
      contenders
        .filter((c) => /^(node|bun|deno)-raw-[a-z-]+$/.test(c.name) && !c.tuned.length && !c.ceiling)
        .map((c) => c.name)
        .sort(),
    );
    expect(trim.length).toBe(13);
  });
  test('live on one server; upsert on the cluster without its replica twin', () => {
    expect(workloadOf('live').oneServer).toMatch(/one --server/);
    expect(workloadOf('xrange').clusterServers).toEqual(CLUSTER_SERVERS);
    expect(workloadOf('upsert').clusterServers).toEqual(['cluster']);
  });
  test("Redis's ceiling for every read; the clients' for a fixed stream only", () => {
    expect(workloadOf('xrange-count').ceilings).toEqual({ redis: true, clients: true });
    expect(workloadOf('live').ceilings).toEqual({ redis: true, clients: false });
    expect(workloadOf('upsert').ceilings).toEqual({ redis: false, clients: false });
  });
});

describe('the check after a window', () => {
  test("upsert: the window's accounting problem makes the run invalid, before any request", async () => {
    const upsert = { prefix: 'abcw3k', problem: '2 writes lost' };
    const run = { round: 2, workload: { kind: 'upsert', data: upsert } } as unknown as RunRecord;
    const fault = await workloadOf('upsert').checkAfter({ url: 'http://127.0.0.1:1/' } as never, run);
    expect(fault).toEqual({ status: 'invalid', reason: 'run 2, keys item:{abcw3k…}: 2 writes lost' });
  });
});

describe('what the answers and the report ask of a workload', () => {
  const window = (over: object) => ({ ok: 90, errors: { non_2xx: 10 }, ...over }) as unknown as RunRecord;
  const record = (kind: string, data: object) => ({ workload: { kind, data } });
  const branches = { created: 50, updated: 30, ignored: 5, conflict: 10, pong: 0 };
  test('the gate: the responses that reached Redis, and the non-2xx that are answers', () => {
    expect(workloadOf('xrange').rules.served(window({}))).toBe(90);
    expect(workloadOf('live').rules.served(window(record('live', { count: 7 })))).toBe(97);
    // A write's 409 (WATCH gave up) is an answer: served, and left out of the errors.
    expect(workloadOf('upsert').rules.served(window(record('upsert', { branches })))).toBe(95);
    expect(workloadOf('upsert').rules.exempt(window(record('upsert', { branches })))).toBe(10);
    // Another workload's record is not its own.
    expect(workloadOf('live').rules.served(window(record('upsert', { branches, count: 7 })))).toBe(90);
    expect(workloadOf('xrange').rules.exempt(window({}))).toBe(0);
  });
  test("a launch's windows: each workload pools its records into the run's { kind, data }, all or none", () => {
    const up = (created: number) =>
      window(
        record('upsert', {
          branches: { ...branches, created },
          lost: 0,
          invented: 0,
          stale: 0,
          redis_commands: { evalsha: created },
        }),
      );
    const pooled = workloadOf('upsert').pool([up(1), up(2)]);
    expect(pooled?.kind).toBe('upsert');
    expect(dataOf(pooled ? { workload: pooled } : {}, 'upsert')).toMatchObject({
      branches: { created: 3 },
      redis_commands: { evalsha: 3 },
    });
    expect(workloadOf('upsert').pool([up(1), window({})])).toBeUndefined();
    expect(workloadOf('xrange').pool([window({})])).toBeUndefined();
  });
  test('a results.json recorded before { kind, data } reads as if written today', () => {
    const live = { live: { count: 7 } };
    const upsert = { upsert: { keys: 1 }, redis_commands: { evalsha: 3 }, ok: 9 };
    const [a, b, c]: Record<string, unknown>[] = [{ ...live }, { ...upsert }, { ok: 9 }];
    upgradeRecord(a!, 'live');
    upgradeRecord(b!, 'upsert');
    upgradeRecord(c!, 'xrange');
    expect(a).toEqual({ workload: { kind: 'live', data: { count: 7 } } });
    expect(b).toEqual({ workload: { kind: 'upsert', data: { keys: 1, redis_commands: { evalsha: 3 } } }, ok: 9 });
    expect(c).toEqual({ ok: 9 });
    // Every run the file holds, and each run's windows.
    const dir = mkdtempSync(join(tmpdir(), 'legacy-'));
    const run = () => ({ ...live, windows: [{ ...live }] });
    const c0 = { runs: [run()], points: [{ runs: [run()], discarded_runs: [run()] }] };
    writeFileSync(
      join(dir, 'results.json'),
      JSON.stringify({ schema: 2, settings: { workload: 'live' }, contenders: [c0] }),
    );
    const read = readResults(join(dir, 'results.json')).contenders[0]!;
    const runs = [...read.runs, ...read.points[0]!.runs, ...read.points[0]!.discarded_runs!];
    for (const r of [...runs, ...runs.flatMap((x) => x.windows!)])
      expect(dataOf(r, 'live')).toEqual({ count: 7 } as never);
    rmSync(dir, { recursive: true });
  });
  test('its page: the reads add nothing; live and upsert a section and a chart of their own', () => {
    expect(workloadOf('xrange').sections).toEqual([]);
    expect(workloadOf('xrange').charts).toEqual([]);
    expect(workloadOf('live').sections.map((s) => s.id)).toEqual(['live']);
    expect(workloadOf('upsert').sections.map((s) => s.id)).toEqual(['upsert']);
    expect(workloadOf('live').charts.map((c) => c.file)).toEqual(['live-over-time.png']);
    expect(workloadOf('upsert').charts.map((c) => c.file)).toEqual(['upsert-over-time.png']);
  });
  test('what a request does, in its own words', () => {
    const r = { data: { entries: 339, body_bytes: 20_400 }, settings: { upsert: { keys: 1 } } } as never;
    expect(workloadOf('xrange').load(r, true)).toBe('the XRANGE of 339 entries answered as a 20 KB JSON body');
    expect(workloadOf('xrevrange-count').load(r, false)).toBe('XREVRANGE-COUNT');
    expect(workloadOf('upsert').load(r, false)).toBe('POST /items/:id over 1 key');
  });
});

describe('the write workloads, around and after a window', () => {
  const trim = (o: object) => ({ ok: 5, workload: { kind: 'xadd-trim', data: o } }) as unknown as RunRecord;
  test('xadd-trim: served is every answered write (201s and errors); any problem, invented too: invalid', async () => {
    expect(workloadOf('xadd-trim').rules.served(trim({ acked: 90, errors: 10 }))).toBe(100);
    const problem = 'invented writes: the stream counted 12 added, 10 acknowledged, 0 unanswered';
    const fault = await workloadOf('xadd-trim').checkAfter(ctx, {
      ...trim({ lost: 0, invented: 2, problem }),
      round: 3,
    });
    expect(fault).toEqual({ status: 'invalid', reason: `run 3: ${problem}` });
  });

  test('only the default read workload is published, and a run at a distance apart', () => {
    expect(placeOf({ workload: 'xrange' })?.dir).toBe('latest');
    for (const w of ['xread', 'xrange-count', 'xrevrange-count', 'xadd-trim'] as const)
      expect(placeOf({ workload: w })).toBeNull();
    expect(placeOf({ workload: 'upsert', redis_rtt_ms: 1 })?.dir).toBe('latest-upsert-distance');
  });
});
