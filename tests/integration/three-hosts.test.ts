// The three-host layout (README, docs/usage.md), played out on one machine: Redis, the app and the load
// generator each in a network namespace of their own, joined by veth links. The app is started
// by hand (BIND_HOST on its link address), the harness measures it with --target and reads
// Redis over the network through REDIS_URL.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { ROOT } from '../../packages/harness/src/system/paths';
import { killTree, type Tracked } from '../../packages/harness/src/system/proc';
import { serverArgs } from '../../packages/harness/src/topology/redis';
import { CLI, resultsIn } from '../helpers/cli';
import {
  leftNamespaces,
  makeThreeHosts,
  netnsUnavailable,
  removeThreeHosts,
  runIn,
  startIn,
  type ThreeHosts,
} from '../helpers/netns';

const skip = netnsUnavailable();
if (skip) console.warn(`three-hosts test skipped: ${skip}`);

const APP_DIR = join(ROOT, 'apps/node');
const BUNDLE = `dist/three-hosts-${process.pid}.js`;
const PORT = 3000;

/** Polls until ok() (bounded); throws naming what never happened. */
async function until(what: string, ok: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${ms / 1000}s`);
    await Bun.sleep(100);
  }
}

/** A process's exit, or SIGKILL after ms. */
async function exitOf(p: Tracked, ms: number): Promise<{ code: number | null; signal: string | null }> {
  const timer = setTimeout(() => killTree(p.pid, 500), ms);
  const done = await p.exited;
  clearTimeout(timer);
  return done;
}

describe.skipIf(skip !== null)('three hosts: load generator, app and Redis in network namespaces of their own', () => {
  let h: ThreeHosts;
  let redis: Tracked | undefined;
  let app: Tracked | undefined;
  const scratch = mkdtempSync(join(tmpdir(), 'three-hosts-'));
  const redisUrl = () => `redis://${h.addr.redis}:6379`;
  const appUrl = () => `http://${h.addr.app}:${PORT}/`;

  beforeAll(async () => {
    // The app's Node bundle under a name of its own: a concurrent build of dist/server.js is left alone.
    const build = spawnSync('bun', [join(ROOT, 'scripts/build-node-app.ts'), 'src/server.ts', BUNDLE], {
      cwd: APP_DIR,
      encoding: 'utf8',
      timeout: 120_000,
    });
    if (build.status !== 0) throw new Error(`bundling apps/node failed: ${build.stderr}`);
    copyFileSync(join(ROOT, 'dump.rdb'), join(scratch, 'dump.rdb'));
    h = makeThreeHosts();
    redis = startIn(h, 'redis', [
      'redis-server',
      ...serverArgs({ port: 6379, dir: scratch, rdb: 'dump.rdb', bind: h.addr.redis }),
    ]);
    await until(
      'Redis answering PING from the load namespace',
      () => runIn(h, 'load', ['redis-cli', '-u', redisUrl(), 'PING']).out.trim() === 'PONG',
      20_000,
    );
    app = startIn(h, 'app', ['node', BUNDLE], {
      cwd: APP_DIR,
      env: { NODE_ENV: 'production', REDIS_URL: redisUrl(), BIND_HOST: h.addr.app, PORT: String(PORT) },
    });
    const probe =
      'const r = await fetch(process.env.PROBE_URL, { signal: AbortSignal.timeout(1000) }).catch(() => null); ' +
      'process.exit(r?.ok ? 0 : 1)';
    await until(
      'the app answering from the load namespace',
      () => runIn(h, 'load', ['bun', '-e', probe], { env: { PROBE_URL: appUrl() } }).code === 0,
      20_000,
    );
  }, 180_000);

  afterAll(async () => {
    if (h) await removeThreeHosts(h, [app, redis]);
    rmSync(join(APP_DIR, BUNDLE), { force: true });
    rmSync(join(APP_DIR, BUNDLE.replace(/\.js$/, '-chunks')), { recursive: true, force: true });
    rmSync(scratch, { recursive: true, force: true });
    if (h) expect(leftNamespaces(h)).toEqual([]);
  }, 30_000);

  test('the hosts talk over their links, not loopback; the app listens on its link address only', () => {
    for (const [from, to, dev] of [
      ['load', h.addr.app, 'to-app'],
      ['load', h.addr.redis, 'to-app'],
      ['app', h.addr.redis, 'to-redis'],
    ] as const) {
      expect(runIn(h, from, ['ip', 'route', 'get', to]).out).toContain(`dev ${dev} `);
    }
    // redis-cli --latency to a non-TTY: one line "min max avg samples" in ms after 1 s.
    const [min, , avg, samples] = runIn(h, 'load', ['redis-cli', '-u', redisUrl(), '--latency', '--raw'])
      .out.trim()
      .split(/\s+/)
      .map(Number);
    console.log(
      'three hosts: Redis PING from the load namespace, through the ' +
        `app's: avg ${avg} ms, min ${min} ms over ${samples} samples`,
    );
    expect(samples).toBeGreaterThan(10);
    expect(avg).toBeGreaterThan(0);
    const listening = runIn(h, 'app', ['ss', '-Hltn']).out;
    expect(listening).toContain(`${h.addr.app}:${PORT}`);
    expect(listening).not.toMatch(new RegExp(`(127\\.0\\.0\\.1|\\*|0\\.0\\.0\\.0):${PORT}\\b`));
  });

  test('--target measures the app by hand through the three hosts: verified, one XRANGE per request', async () => {
    const out = join(scratch, 'results');
    const xrangeBefore = xrangeCalls();
    const harness = startIn(
      h,
      'load',
      [
        'bun',
        CLI,
        '--target',
        appUrl(),
        '--target-name',
        'node-raw-by-hand',
        '--duration',
        '1s',
        '--runs',
        '2',
        '--warmup',
        '0',
        '--windows',
        '1',
        '--out',
        out,
      ],
      {
        cwd: ROOT,
        env: { REDIS_URL: redisUrl() },
      },
    );
    const { code } = await exitOf(harness, 120_000);
    if (code !== 0) console.error(harness.tail().join('\n'));
    expect(code).toBe(0);
    const { json } = resultsIn(out);
    expect(json.complete).toBe(true);
    expect(json.target).toMatchObject({ name: 'node-raw-by-hand', url: appUrl() });
    expect(json.data.redis_url).toBe(redisUrl());
    // Steal is recorded, never a reason to measure again or leave a round out: the app is elsewhere.
    expect(json.settings.max_steal_pct).toBe(100);
    const [c] = json.contenders;
    expect(c.status).toBe('ok');
    expect(c.runs).toHaveLength(2);
    for (const run of c.runs) {
      expect(run.after_check).toBe('ok');
      expect(run.expected_bytes).toBe(json.data.body_bytes);
      expect(run.ok).toBeGreaterThan(0);
      expect(Math.abs(run.redis_calls_per_req - 1)).toBeLessThanOrEqual(0.02);
      // The app is elsewhere: its CPU and memory are not measured, never reported as 0.
      expect(run.cpu_us_per_req).toBeNull();
      expect(run.rss_mb).toBeNull();
    }
    // Redis itself, asked over the link, saw at least one XRANGE per response counted.
    expect(xrangeCalls() - xrangeBefore).toBeGreaterThanOrEqual(c.runs.reduce((n: number, r: any) => n + r.ok, 0));
    console.log(
      'three hosts, one short run (2 × 1 s, c50): ' +
        `${c.runs.map((r: any) => `${Math.round(r.rps)} req/s`).join(', ')}; p50 ${c.latency_ms.p50.toFixed(1)} ms; ` +
        `${c.redis_calls_per_req.toFixed(3)} XRANGE per request`,
    );
  }, 150_000);

  test('an app that does not answer is one line naming the cause and fix; nothing left running', async () => {
    const harness = startIn(
      h,
      'load',
      ['bun', CLI, '--target', `http://${h.addr.app}:${PORT + 1}/`, '--out', join(scratch, 'none')],
      { cwd: ROOT, env: { REDIS_URL: redisUrl() } },
    );
    const { code } = await exitOf(harness, 60_000);
    expect(code).toBe(1);
    const errors = harness.tail().filter((l) => l.startsWith('error:'));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(`--target http://${h.addr.app}:${PORT + 1}/ does not answer`);
    expect(errors[0]).toContain('BIND_HOST');
    // Its orphan guard outlives it by at most half a second.
    const pids = () =>
      spawnSync('ip', ['netns', 'pids', h.ns.load], { encoding: 'utf8', timeout: 5000 })
        .stdout.split('\n')
        .filter(Boolean);
    await until('the load namespace empty', () => pids().length === 0, 3000);
  }, 90_000);

  function xrangeCalls(): number {
    const m = /cmdstat_xrange:calls=(\d+)/.exec(
      runIn(h, 'load', ['redis-cli', '-u', redisUrl(), 'INFO', 'commandstats']).out,
    );
    return m ? Number(m[1]) : 0;
  }
});
