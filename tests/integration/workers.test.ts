// WORKERS=2: the app started by the harness is a primary that forks two workers; both serve the
// golden body with exactly one Redis read per request, each over its own connection, and the
// whole tree goes when the primary is stopped, killed, or loses a worker. Deno refuses clearly.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { STREAM_KEY } from '@bench/stream';
import {
  ADDRESS_IN_USE,
  AppError,
  buildApp,
  dataKey,
  startApp,
  type RunningApp,
} from '../../packages/harness/src/measure/apps';
import { loadContenders } from '../../packages/harness/src/model/manifests';
import { ROOT } from '../../packages/harness/src/system/paths';
import { freePort } from '../../packages/harness/src/system/net';
import { appEnvironment } from '../../packages/harness/src/run/rig';
import { isAlive, processTree } from '../../packages/harness/src/system/proc';
import {
  cli,
  commandStats,
  goldenBody,
  startPrivateRedis,
  type RedisTarget,
} from '../../packages/harness/src/topology/redis';

const contenders = loadContenders();
const REQUESTS = 200;
let redis: RedisTarget;
let golden: string;
const pids: number[] = [];

beforeAll(async () => {
  redis = await startPrivateRedis(join(ROOT, 'dump.rdb'));
  pids.push(redis.server!.pid);
  golden = goldenBody(redis, STREAM_KEY);
});

afterAll(async () => {
  await redis?.stop();
});

/** Builds and starts a contender as the harness does; `env` overrides its settings. */
async function launch(name: string, env: Record<string, string> = {}): Promise<RunningApp> {
  const c = contenders.find((x) => x.name === name);
  if (!c) throw new Error(`no contender ${name}: is "workers" in its bench.json settings?`);
  const appEnv = { ...appEnvironment(c, redis.url, 'xrange'), ...c.env, ...env };
  await buildApp(c, appEnv, dataKey(golden));
  const app = await startApp(c, { env: appEnv, timeoutMs: 60_000 });
  pids.push(app.pid);
  return app;
}

/** The app's connections: every client but this redis-cli asking. */
const appClients = () =>
  cli(redis, ['CLIENT', 'LIST'])
    .trim()
    .split('\n')
    .filter((l) => !l.includes('cmd=client|list'));

/** Polls `ok` every 50 ms until it holds or `ms` is over; returns whether it held. */
async function until(ok: () => boolean, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await Bun.sleep(50)) if (ok()) return true;
  return ok();
}

/**
 * Watches Redis's MONITOR while `fn` runs: how many XRANGE each client address sent. Started and
 * stopped by its own pid; MONITOR's "OK" says it is listening before `fn` starts.
 */
async function xrangeByClient(fn: () => Promise<void>): Promise<Map<string, number>> {
  const port = new URL(redis.url).port;
  const mon = spawn('redis-cli', ['-h', '127.0.0.1', '-p', port, 'MONITOR'], { stdio: ['ignore', 'pipe', 'ignore'] });
  let out = '';
  mon.stdout.on('data', (d: Buffer) => (out += d.toString()));
  try {
    if (!(await until(() => out.startsWith('OK'), 5000))) throw new Error('redis-cli MONITOR did not start');
    await fn();
    // MONITOR writes each command as Redis runs it; the last reply came after its XRANGE ran.
    await Bun.sleep(200);
  } finally {
    mon.kill('SIGKILL');
  }
  const counts = new Map<string, number>();
  for (const m of out.matchAll(/\[\d+ ([\d.:]+)\] "xrange"/gi)) counts.set(m[1]!, (counts.get(m[1]!) ?? 0) + 1);
  return counts;
}

/** REQUESTS requests one after another, each on a new connection (workers take connections, not requests). */
async function requestsOnNewConnections(url: string): Promise<string[]> {
  const bodies: string[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const res = await fetch(url, {
      headers: { connection: 'close' },
      keepalive: false,
      signal: AbortSignal.timeout(5000),
    });
    bodies.push(await res.text());
  }
  return bodies;
}

/** Bounded: true once none of `tree` runs. */
const allGone = (tree: number[], ms = 5000) => until(() => tree.every((p) => !isAlive(p)), ms);

for (const runtime of ['node', 'bun']) {
  const name = `${runtime}-raw-node-redis-workers2`;
  describe(`${name}`, () => {
    test('primary and 2 workers, each its own Redis connection, serve the golden body; SIGTERM ends all', async () => {
      const app = await launch(name);
      try {
        expect(await until(() => processTree(app.pid).length === 3 && appClients().length === 2, 10_000)).toBe(true);
        const tree = processTree(app.pid);
        expect(tree).toContain(app.pid);
        // The primary opens no Redis connection: the two are the workers'.
        expect(appClients()).toHaveLength(2);
        await Bun.sleep(300); // the second worker listens right after it connects
        cli(redis, ['CONFIG', 'RESETSTAT']);
        let bodies: string[] = [];
        const byClient = await xrangeByClient(async () => void (bodies = await requestsOnNewConnections(app.url)));
        expect(bodies.filter((b) => b !== golden)).toEqual([]);
        expect(bodies).toHaveLength(REQUESTS);
        expect(commandStats(redis).xrange?.calls).toBe(REQUESTS);
        expect(byClient.size).toBe(2);
        expect([...byClient.values()].reduce((a, b) => a + b, 0)).toBe(REQUESTS);
        for (const n of byClient.values()) expect(n).toBeGreaterThan(0);

        process.kill(app.pid, 'SIGTERM');
        expect(await allGone(tree)).toBe(true);
        expect((await app.process.exited).code).toBe(0);
      } finally {
        await app.stop();
      }
    }, 120_000);

    test('a worker that dies takes the app down: the primary exits 1 and the other worker goes too', async () => {
      const app = await launch(name);
      try {
        expect(await until(() => processTree(app.pid).length === 3, 10_000)).toBe(true);
        const tree = processTree(app.pid);
        process.kill(tree.find((p) => p !== app.pid)!, 'SIGKILL');
        expect(await allGone(tree)).toBe(true);
        expect((await app.process.exited).code).toBe(1);
        expect(app.process.tail().join('\n')).toMatch(/WORKERS: worker \d+ exited \(SIGKILL\); stopping the app/);
      } finally {
        await app.stop();
      }
    }, 60_000);

    test('a primary killed outright (SIGKILL) leaves no worker behind', async () => {
      const app = await launch(name);
      try {
        expect(await until(() => processTree(app.pid).length === 3, 10_000)).toBe(true);
        const workers = processTree(app.pid).filter((p) => p !== app.pid);
        process.kill(app.pid, 'SIGKILL');
        expect(await allGone(workers)).toBe(true);
      } finally {
        await app.stop();
      }
    }, 60_000);
  });
}

describe('where workers do not run', () => {
  test('alone (WORKERS=1) a Bun.serve app fails on a port that is taken: reusePort is for workers only', async () => {
    const c = contenders.find((x) => x.name === 'bun-raw-node-redis')!;
    const port = await freePort();
    // A squatter that allows sharing: only an app that asks for reusePort too could bind beside it.
    const squatter = Bun.serve({ hostname: '127.0.0.1', port, reusePort: true, fetch: () => new Response('squatter') });
    try {
      const env = appEnvironment(c, redis.url, 'xrange');
      // startApp may see the squatter answer first; the app itself must not be running.
      const app = await startApp(c, { port, env, timeoutMs: 10_000 }).catch((e: AppError) => e);
      if (app instanceof AppError) expect(app.output.join('\n')).toMatch(ADDRESS_IN_USE);
      else {
        pids.push(app.pid);
        try {
          expect(await until(() => app.process.hasExited(), 10_000)).toBe(true);
          expect(app.process.tail().join('\n')).toMatch(ADDRESS_IN_USE);
        } finally {
          await app.stop();
        }
      }
    } finally {
      squatter.stop(true);
    }
  }, 60_000);

  test('Deno (WORKERS=2) refuses with the reason: its start command lacks --allow-run and --unstable-net', async () => {
    const err = await launch('deno-raw-node-redis', { WORKERS: '2' }).then(
      (app) => app.stop().then(() => null),
      (e: AppError) => e,
    );
    expect(err).toBeInstanceOf(AppError);
    expect(err!.output.join('\n')).toContain('WORKERS=2 on Deno needs --allow-run');
  }, 60_000);

  test('Next has no workers contender: next start runs its own server', () => {
    expect(contenders.filter((c) => c.app === 'next' && c.settings.workers !== '1')).toEqual([]);
    expect(contenders.filter((c) => c.settings.workers === '2').map((c) => c.name)).toContain(
      'node-raw-node-redis-workers2',
    );
  });

  test('everything started here is stopped', async () => {
    await redis.stop();
    await Bun.sleep(200);
    expect(pids.filter(isAlive)).toEqual([]);
  });
});
