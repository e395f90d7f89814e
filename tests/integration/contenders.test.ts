// Every contender of the matrix, started once against a private Redis from dump.rdb (or the RDB in BENCH_TEST_RDB, e.g.
// one of 3,390 entries from npm run make-rdb), returns exactly the golden body (a twin whose read route is launched
// already is launched for what it adds: each other write strategy's upsert, once per runtime; WORKERS=2, once per
// runtime × framework); in the same launch, every contender of
// the default suite and each with DECODE=bytes or raw serves the hostile stream (npm run make-rdb -- --hostile),
// copied under the stream's key: field values with quotes, backslashes, control characters, emoji, U+2028/2029, long
// values and bytes that are not UTF-8, and entries whose field names are integer-like, repeated or `__proto__`, a
// leading BOM and a name that is not UTF-8. On it, a body is the hostile golden body byte for byte, or differs by named
// causes only (a finding the verdict names); a contender whose body differs otherwise is a finding named here, not a
// failure of the run. Static pages render the stream at build time: they are built again on the hostile stream.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { SETTINGS, STREAM_KEY } from '@bench/stream';
import type { RunningApp } from '../../packages/harness/src/measure/apps';
import { appStarter } from '../helpers/apps';
import type { Contender } from '../../packages/harness/src/model/contenders';
import { loadContenders } from '../../packages/harness/src/model/manifests';
import { ROOT } from '../../packages/harness/src/system/paths';
import { runOha } from '../../packages/harness/src/measure/oha';
import { isAlive } from '../../packages/harness/src/system/proc';
import {
  cli,
  commandStats,
  goldenBody,
  startPrivateRedis,
  streamInfo,
  type RedisTarget,
} from '../../packages/harness/src/topology/redis';
import { CAUSES } from '../../packages/harness/src/measure/contract';
import { type Verdict, verifyContract } from '../../packages/harness/src/measure/verify';
import { verifyUpsert } from '../../packages/harness/src/workloads/upsert/measure';

const contenders = loadContenders();
const RDB = process.env.BENCH_TEST_RDB ? resolve(process.env.BENCH_TEST_RDB) : join(ROOT, 'dump.rdb');
const shippedData = RDB === join(ROOT, 'dump.rdb');
/** Where each stream is kept in the private Redis; STREAM_KEY holds a copy of the one the apps serve. */
const KEPT = { golden: 'kept:golden', hostile: 'kept:hostile' } as const;
type Stream = keyof typeof KEPT;

/** Contenders known to serve another body on the hostile stream, and what differs (a finding of the benchmark). */
const FINDINGS: Record<string, RegExp> = Object.fromEntries(
  // valkey-glide's default (string) decoder fails the read when a bulk string is not UTF-8: the app answers 500.
  // Its DECODE=bytes twins (Decoder.Bytes) serve the golden body.
  ['node', 'bun', 'deno'].map((runtime) => [`${runtime}-raw-glide`, /^status 500, want 200$/]),
);
/** A finding: the causes the contract names, each with its entry and field, joined by "; ". */
const cause = `(?:${Object.values(CAUSES)
  .map((c) => c.text.replace(/[()]/g, '\\$&'))
  .join('|')}) \\(entry [^)]*\\)`;
const NAMED = new RegExp(`^${cause}(?:; ${cause})*$`);
/** Checked on the hostile stream too: the default suite (not its ceilings) and every DECODE=bytes or raw contender. */
const onHostile = (c: Contender) => (c.suites.includes('default') && !c.ceiling) || c.settings.decode !== 'default';

const dir = mkdtempSync(join(tmpdir(), 'bench-contenders-'));
let redis: RedisTarget;
const golden = { golden: '', hostile: '' };
let serving: Stream = 'golden';
const hostileVerdicts = new Map<string, Verdict>();
const pids: number[] = [];

/** The apps read STREAM_KEY: a copy of the kept stream, replaced whole. */
function serve(stream: Stream): void {
  cli(redis, ['COPY', KEPT[stream], STREAM_KEY, 'REPLACE']);
  serving = stream;
}

beforeAll(async () => {
  redis = await startPrivateRedis(RDB);
  pids.push(redis.server!.pid);
  cli(redis, ['COPY', STREAM_KEY, KEPT.golden]);
  golden.golden = goldenBody(redis, KEPT.golden);
  // The hostile stream, made into an RDB of its own, moved into this Redis beside the golden one.
  const rdb = join(dir, 'hostile.rdb');
  const made = spawnSync('bun', ['scripts/make-rdb.ts', '--hostile', '--out', rdb], { cwd: ROOT, encoding: 'utf8' });
  if (made.status !== 0) throw new Error(`make-rdb --hostile: ${made.stderr}`);
  const hostile = await startPrivateRedis(rdb);
  pids.push(hostile.server!.pid);
  try {
    cli(hostile, ['RENAME', STREAM_KEY, KEPT.hostile]);
    cli(hostile, ['MIGRATE', '127.0.0.1', new URL(redis.url).port, KEPT.hostile, '0', '10000']);
  } finally {
    await hostile.stop();
  }
  golden.hostile = goldenBody(redis, KEPT.hostile);
}, 60_000);

afterAll(async () => {
  await stopped(); // a run of some tests only (-t) stops its apps too
  await redis?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const { withApp: start, stopped } = appStarter(() => ({ redisUrl: redis.url, golden: golden[serving] }), pids);
const withApp = <T>(name: string, fn: (app: RunningApp) => Promise<T>, workload = 'xrange') =>
  start(contenders.find((x) => x.name === name)!, fn, workload);

/** Runs `fn` while the apps serve the hostile stream, then the golden one again. */
async function onHostileStream<T>(fn: () => Promise<T>): Promise<T> {
  serve('hostile');
  try {
    return await fn();
  } finally {
    serve('golden');
  }
}

/** The hostile stream's verdict for a contender whose app is up: a known finding, or the body or named causes only. */
async function checkHostile(c: Contender, app: RunningApp): Promise<void> {
  const verdict = await verifyContract(app.url, golden.hostile, c.page);
  hostileVerdicts.set(c.name, verdict);
  if (FINDINGS[c.name]) expect(verdict.reason ?? 'ok').toMatch(FINDINGS[c.name]!);
  else expect(verdict.reason ?? 'ok').toBe('ok');
  // A body that differs by the names' causes only says which, in one line.
  if (verdict.finding) expect(verdict.finding).toMatch(NAMED);
}

describe('data', () => {
  test.skipIf(!shippedData)('dump.rdb holds the 339-entry stream, about 20 KB in Redis and 45-50 KB of JSON', () => {
    const info = streamInfo(redis, STREAM_KEY);
    expect(info.length).toBe(339);
    expect(info.memoryBytes).toBeGreaterThan(18_000);
    expect(info.memoryBytes).toBeLessThan(22_500);
    expect(golden.golden.length).toBeGreaterThan(45_000);
    expect(golden.golden.length).toBeLessThan(50_000);
    const first = JSON.parse(golden.golden).entries[0];
    expect(Object.keys(first.fields)).toEqual(['color', 'font', 'alignment', 'position', 'height', 'width']);
  });

  test('the hostile golden body holds every hostile value, U+FFFD where the bytes are not UTF-8', () => {
    const body = golden.hostile;
    const notes = new Set(JSON.parse(body).entries.map((e: { fields: { note: string } }) => e.fields.note));
    expect(notes).toContain('line\u2028para\u2029end');
    expect(notes).toContain('a\ufffdb');
    expect([...notes].some((n) => (n as string).length > 5000)).toBe(true);
    expect(notes).toContain(String.fromCharCode(...Array.from({ length: 32 }, (_, i) => i), 0x7f));
    // The names: in stream order, a repeated name once with its last value, __proto__ kept, a leading BOM kept.
    expect(body).toContain('"fields":{"color":"red","2":"two","1":"one"}');
    expect(body).toContain('"fields":{"color":"blue","font":"karla"}');
    expect(body).toContain('"fields":{"color":"red","__proto__":"proto"}');
    expect(body).toContain('"fields":{"note":"\uFEFFA"}');
    expect(body).toContain('"fields":{"k\uFFFD":"bad byte in the name"}');
  });
});

/**
 * A write strategy other than the default is measured under --workload upsert only (the bench refuses it under any
 * other), and its read route is its default twin's: the same app, client and settings. Each strategy is launched once
 * per runtime for its upsert check below, not for the golden body again.
 */
const otherWrite = (c: Contender) => c.settings.write !== SETTINGS.write.default;

/**
 * WORKERS=2 forks the app: what that adds (the fork, the shared port) depends on the runtime and the framework, and
 * each twin's read route is its one-worker twin's. One twin per runtime × framework is launched, the least-launched
 * client first, so that every client runs forked too.
 */
function forkedOnce(twins: Contender[]): Set<Contender> {
  const used = new Map<string, number>();
  const groups = new Map<string, Contender[]>();
  for (const c of twins) {
    const key = `${c.runtime} ${c.framework}`;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key)!.push(c);
  }
  const out = new Set<Contender>();
  for (const twins of groups.values()) {
    const c = twins.reduce((a, b) => ((used.get(b.client) ?? 0) < (used.get(a.client) ?? 0) ? b : a));
    used.set(c.client, (used.get(c.client) ?? 0) + 1);
    out.add(c);
  }
  return out;
}
const forkedTwins = contenders.filter((c) => c.settings.workers !== SETTINGS.workers.default);
const forked = forkedOnce(forkedTwins);
const launched = contenders.filter((c) => !otherWrite(c) && (!forkedTwins.includes(c) || forked.has(c)));

describe('every contender passes the contract, on the golden stream and (default suite, decode) the hostile', () => {
  test('the forked twins launched cover every runtime × framework, and every client', () => {
    const key = (c: Contender) => `${c.runtime} ${c.framework}`;
    expect(new Set([...forked].map(key))).toEqual(new Set(forkedTwins.map(key)));
    expect(new Set([...forked].map((c) => c.client))).toEqual(new Set(forkedTwins.map((c) => c.client)));
  });
  for (const c of launched) {
    // A static page renders the stream at build time: its hostile check builds it again, below.
    const hostileHere = onHostile(c) && !c.static;
    const title = `${c.name} returns the golden body${hostileHere ? ', and on the hostile stream the contract' : ''}`;
    test(`${title}${FINDINGS[c.name] ? ' (a known finding)' : ''}`, async () => {
      await withApp(c.name, async (app) => {
        const verdict = await verifyContract(app.url, golden.golden, c.page);
        expect(verdict.reason ?? 'ok').toBe('ok');
        // The length every response under load must have: the golden body, or the page that embeds it.
        if (c.page) expect(verdict.bytes!).toBeGreaterThan(golden.golden.length);
        else expect(verdict.bytes).toBe(golden.golden.length);
        if (hostileHere) await onHostileStream(() => checkHostile(c, app));
      });
    }, 240_000);
  }
  test('the xread workload gives the same body', async () => {
    const verdict = await withApp('node-raw-ioredis', (app) => verifyContract(app.url, golden.golden, false), 'xread');
    expect(verdict).toEqual({ ok: true, bytes: golden.golden.length });
  }, 60_000);
});

describe('every stack of the upsert suite passes the upsert check', () => {
  // One contender per stack (the default strategy, lua): the route is the app's; the strategies are tested in
  // writes.test.
  for (const c of contenders.filter((x) => x.suites.includes('upsert') && !x.tuned.length)) {
    const route = c.path === '/' ? '' : c.path;
    test(`${c.name}: POST ${route}/items/:id created, updated, ignored; the newest kept, applied = 3`, async () => {
      const verdict = await withApp(c.name, (app) => verifyUpsert(app.url, redis, c.settings.write), 'upsert');
      expect(verdict.reason ?? 'ok').toBe('ok');
    }, 240_000);
  }
  // Each other strategy through an app of each runtime: WRITE reaches the strategy's writer (writes.test checks each
  // strategy on every client, the stacks above each app's route).
  const strategies = SETTINGS.write.values.filter((w) => w !== SETTINGS.write.default);
  const byRuntime = strategies.flatMap((w) =>
    [...new Set(contenders.map((c) => c.runtime))].flatMap((rt) => {
      const c = contenders.find((x) => x.settings.write === w && x.runtime === rt);
      return c ? [c] : [];
    }),
  );
  test('each other write strategy has an app on every runtime that measures writes', () => {
    expect(new Set(byRuntime.map((c) => c.settings.write))).toEqual(new Set(strategies));
    expect(new Set(byRuntime.map((c) => c.runtime))).toEqual(new Set(['node', 'bun', 'deno']));
  });
  // The command only that strategy sends for each request, and the default's (EVALSHA), which it never sends.
  const MARK: Record<string, string> = { watch: 'watch', function: 'fcall', ping: 'ping' };
  for (const c of byRuntime)
    test(`${c.name} (WRITE=${c.settings.write}): the upsert check, by its strategy's commands`, async () => {
      const calls = (name: string) => commandStats(redis)[name]?.calls ?? 0;
      const { verdict, mark, evalsha } = await withApp(
        c.name,
        async (app) => {
          const before = [calls(MARK[c.settings.write]!), calls('evalsha')];
          const verdict = await verifyUpsert(app.url, redis, c.settings.write);
          return { verdict, mark: calls(MARK[c.settings.write]!) - before[0]!, evalsha: calls('evalsha') - before[1]! };
        },
        'upsert',
      );
      expect(verdict.reason ?? 'ok').toBe('ok');
      expect(mark).toBeGreaterThan(0);
      expect(evalsha).toBe(0);
    }, 240_000);
});

// Last of the apps' checks: building the static pages on the hostile stream leaves that build in place.
describe('the hostile stream: static pages, and the findings', () => {
  const statics = contenders.filter((c) => onHostile(c) && c.static);
  test(`static pages built on the hostile stream: ${statics.map((c) => c.name).join(', ')}`, async () => {
    expect(statics.length).toBeGreaterThan(0);
    // The whole phase on the hostile stream: a force-static route renders at its first request (Next keeps it in
    // .next/server/route-cache), after the build, so the stream must stay the hostile one until the last is checked.
    await onHostileStream(async () => {
      for (const c of statics) await withApp(c.name, (app) => checkHostile(c, app));
    });
  }, 600_000);

  test('on the hostile stream, where bodies differ the causes are named: objects move integer-like names', () => {
    const findings = [...hostileVerdicts.values()].map((v) => v.finding ?? '');
    console.log([...hostileVerdicts].map(([n, v]) => `${n}: ${v.finding ?? v.reason ?? 'the golden body'}`).join('\n'));
    expect(hostileVerdicts.size).toBe(contenders.filter(onHostile).length);
    expect(findings.some((f) => f.includes(CAUSES.integer.text))).toBe(true);
    // Every JavaScript app of the default suite reads the names into an object: none serves the stream's order.
    const plain = contenders.filter((c) => onHostile(c) && c.settings.decode === 'default' && !FINDINGS[c.name]);
    for (const c of plain) expect(hostileVerdicts.get(c.name)!.finding ?? '').toContain(CAUSES.integer.text);
  });
});

describe('a Node app loads its own client only', () => {
  // glide's library loads a native addon, which the process maps: in the glide app only (a bundle in one file loaded
  // every client at start).
  const mapped = (pid: number) => readFileSync(`/proc/${pid}/maps`, 'utf8').includes('valkey-glide');
  test('node-raw-glide maps glide’s native addon; node-raw-ioredis does not', async () => {
    expect(await withApp('node-raw-glide', async (app) => mapped(app.pid))).toBe(true);
    expect(await withApp('node-raw-ioredis', async (app) => mapped(app.pid))).toBe(false);
  }, 60_000);
});

describe('load', () => {
  test('a 1-second oha smoke run gets only 200s', async () => {
    const out = join(dir, 'oha.json');
    const { run } = await withApp('bun-raw-node-redis', (app) =>
      runOha({ url: app.url, connections: 10, duration_s: 1, requests: null, outFile: out }),
    );
    expect(run.ok).toBeGreaterThan(10);
    expect(run.errors).toEqual({ non_2xx: 0, aborted: 0, other: 0 });
  }, 60_000);

  test('everything started here is stopped', async () => {
    await stopped();
    await redis.stop();
    await Bun.sleep(200);
    expect(pids.filter(isAlive)).toEqual([]);
  });
});
