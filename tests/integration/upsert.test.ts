// --workload upsert through the harness, as a user runs it: two clients × two strategies on one hot
// key with short windows come out valid with nothing lost; the naive watch-shared fixture is
// caught as invalid, with its lost count named; on a cluster, the scripts are accounted for over
// every primary, and on Valkey beside Redis; a Redis killed in the middle of a window stops
// the run, which says so and keeps what it measured.
import { describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../packages/harness/src/system/paths';
import { explained, redisKiller, resultsIn, runCli, settle } from '../helpers/cli';

const SHORT = [
  '--workload',
  'upsert',
  '--keys',
  '1',
  '--runs',
  '1',
  '--duration',
  '1s',
  '--warmup',
  '0s',
  '--windows',
  '2',
];
const real = { BENCH_APPS_DIR: join(ROOT, 'apps') };
const byName = (json: any) => Object.fromEntries(json.contenders.map((c: any) => [c.name, c]));

describe('--workload upsert', () => {
  test('node-redis and ioredis, lua and watch, one hot key: valid, each acknowledged write accounted for', async () => {
    const names = ['node-raw-node-redis', 'node-raw-node-redis-watch', 'bun-raw-ioredis', 'bun-raw-ioredis-watch'];
    const run = await runCli(['--only', names.join(','), ...SHORT], { env: real });
    await explained(run, async () => {
      expect(run.code).toBe(0);
      const { dir, json } = resultsIn(run.outDir);
      expect(json.settings.upsert).toEqual({ keys: 1 });
      for (const name of names) {
        const c = byName(json)[name];
        expect(c.status).toBe('ok');
        const windows = c.points[0].runs.flatMap((r: any) => r.windows);
        expect(windows.length).toBe(2);
        for (const w of windows) {
          // Two keys: oha's one, and the one the harness's own concurrent writes go to.
          expect(w.workload).toMatchObject({ kind: 'upsert' });
          expect(w.workload.data).toMatchObject({
            keys: 1,
            lost: 0,
            invented: 0,
            stale: 0,
            problem: null,
            keys_written: 2,
          });
          expect(w.workload.data.applied).toBe(w.workload.data.acked_applied);
          expect(w.workload.data.branches.created).toBe(2);
        }
        // The server's counters prove the strategy: one EVALSHA per request for lua; WATCH's path for watch.
        const commands = c.points[0].runs[0].workload.data.redis_commands;
        if (name.endsWith('-watch'))
          expect(Object.keys(commands)).toEqual(expect.arrayContaining(['watch', 'hget', 'multi', 'exec']));
        else expect(commands.evalsha).toBeGreaterThan(0);
      }
      // The write question: lua against watch, per stack.
      expect(json.family.questions.filter((q: any) => q.kind === 'write').map((q: any) => q.members)).toEqual([
        ['bun-raw-ioredis', 'bun-raw-ioredis-watch'],
        ['node-raw-node-redis', 'node-raw-node-redis-watch'],
      ]);
      const md = readFileSync(join(dir, 'results.md'), 'utf8');
      expect(md).toContain('**Upsert: 1 key per window, every acknowledged write accounted for**');
      expect(md).toMatch(/\| node-raw-node-redis-watch \| watch \| \d+ \|/);
      // report.html holds every table of results.md: the upsert table too.
      expect(readFileSync(join(dir, 'report.html'), 'utf8')).toContain('data-section="upsert"');
    });
  });

  test('--topology cluster: lua, function; 100 keys over primaries, all writes counted; watch not run', async () => {
    const names = ['node-raw-ioredis', 'node-raw-ioredis-watch', 'node-raw-node-redis-function'];
    // One window a launch (the others' two): what is checked is each window's accounting over the nodes.
    const flags = [...SHORT.slice(0, 2), '--keys', '100', ...SHORT.slice(4, -2), '--windows', '1'];
    const run = await runCli(['--only', names.join(','), '--topology', 'cluster', ...flags], { env: real });
    await explained(run, async () => {
      expect(run.code).toBe(0);
      const json = resultsIn(run.outDir).json;
      expect(json.data.servers.map((s: any) => s.name)).toEqual(['redis', 'cluster']);
      expect(json.unsupported).toEqual([
        {
          name: 'node-raw-ioredis-watch-on-cluster',
          reason: expect.stringMatching(/^watch: WATCH needs a connection of its own/),
        },
      ]);
      for (const name of ['node-raw-ioredis-on-cluster', 'node-raw-node-redis-function-on-cluster']) {
        const c = byName(json)[name];
        expect(c.status).toBe('ok');
        for (const w of c.points[0].runs.flatMap((r: any) => r.windows))
          expect(w.workload.data).toMatchObject({ keys: 100, lost: 0, invented: 0, stale: 0, problem: null });
        // The write commands were counted on the nodes: the script per request, on the cluster.
        const commands = c.points[0].runs[0].workload.data.redis_commands;
        expect(commands[name.includes('function') ? 'fcall' : 'evalsha']).toBeGreaterThan(0);
      }
    });
  });

  test('--servers redis,valkey: each contender on both, every write accounted for, and a server question', async () => {
    const run = await runCli(['--only', 'bun-raw-node-redis', '--servers', 'redis,valkey', ...SHORT], { env: real });
    await explained(run, async () => {
      expect(run.code).toBe(0);
      const json = resultsIn(run.outDir).json;
      expect(json.data.servers.map((s: any) => s.name)).toEqual(['redis', 'valkey']);
      for (const name of ['bun-raw-node-redis', 'bun-raw-node-redis-on-valkey']) {
        const c = byName(json)[name];
        expect(c.status).toBe('ok');
        for (const w of c.points[0].runs.flatMap((r: any) => r.windows))
          expect(w.workload.data).toMatchObject({ keys: 1, lost: 0, invented: 0, stale: 0, problem: null });
      }
      expect(json.family.questions.filter((q: any) => q.kind === 'server').map((q: any) => q.members)).toEqual([
        ['bun-raw-node-redis', 'bun-raw-node-redis-on-valkey'],
      ]);
    });
  });

  const title =
    'fakes that lose or duplicate every 10th write, or drop writes as "ignored", and WATCH on the shared connection';
  test(title, async () => {
    const fakes = ['lose-writes', 'dup-writes', 'ignore-writes'].map((f) => `bun-fake-${f}-node-redis`);
    // One run for the four (Bun's block): each window's writes are accounted for on their own.
    const run = await runCli(['--only', [...fakes, 'bun-naive-ioredis-watch'].join(','), ...SHORT]);
    await explained(run, async () => {
      const c = byName(resultsIn(run.outDir).json);
      expect(c['bun-naive-ioredis-watch'].status).toBe('invalid');
      expect(c['bun-naive-ioredis-watch'].reason).toMatch(
        /lost updates: \d+ acknowledged writes? gone, (its key|their keys) holding an older version \(key item:\{\w+/,
      );
      expect(run.stderr).toContain('bun-naive-ioredis-watch: INVALID');
      expect(fakes.map((f) => c[f].status)).toEqual(['invalid', 'invalid', 'invalid']);
      expect(c[fakes[0]!].reason).toMatch(/lost updates: \d+ writes acknowledged as created or updated, \d+ applied/);
      expect(c[fakes[1]!].reason).toMatch(/invented writes: \d+ applied over \d+ keys, \d+ acknowledged/);
      // Only the harness's own writes have known versions: the fake drops the newest of each burst, caught each time.
      expect(c[fakes[2]!].reason).toMatch(/lost updates: \d+ acknowledged writes? gone, .* was answered "ignored"\)/);
      expect(await settle(run.seen)).toEqual([]);
    });
  });

  test('Redis killed mid-window: the run stops at once, keeps its results, leaves nothing running', async () => {
    // The second window of the first launch: an oha writing a -w2 file (armed from the first line
    // that finds the private Redis up: the progress line comes once, maybe before Redis is seen).
    const killer = redisKiller(() => true, '-w2.json');
    const args = [
      '--only',
      'node-raw-node-redis,node-raw-node-redis-watch',
      '--workload',
      'upsert',
      '--keys',
      '1',
      '--runs',
      '1',
      '--duration',
      '2s',
      '--warmup',
      '0s',
      '--windows',
      '2',
    ];
    const run = await runCli(args, { env: real, onLine: killer.onLine });
    await explained(run, async () => {
      expect(killer.killed()).toBe(true);
      // oha and the prober's writes in flight are stopped, not waited out (20 s and 10 s) once Redis has gone.
      expect(killer.sinceKill()).toBeLessThan(15_000);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('Redis stopped answering');
      const { json } = resultsIn(run.outDir);
      expect(json.complete).toBe(false);
      expect(json.exit_reason).toContain('Redis stopped answering');
      expect(json.contenders.some((c: any) => c.reason?.includes('Redis died'))).toBe(true);
      expect(await settle(run.seen)).toEqual([]);
    });
  });
});
