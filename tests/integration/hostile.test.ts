// The hostile stream (npm run make-rdb -- --hostile): field values with quotes, backslashes, control characters,
// emoji, U+2028/2029, long values and bytes that are not UTF-8. Every contender of the default suite, and each with
// DECODE=bytes or raw, is verified on it against the golden body (redis-cli's reply, decoded as runtimes decode
// UTF-8). A contender whose body differs is a finding, named here with what differs, not a failure of the run.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { STREAM_KEY } from '@bench/stream';
import { appStarter } from '../helpers/apps';
import { verifyContract } from '../../packages/harness/src/measure/verify';
import { loadContenders } from '../../packages/harness/src/model/contenders';
import { isAlive } from '../../packages/harness/src/system/proc';
import { ROOT } from '../../packages/harness/src/system/paths';
import { goldenBody, startPrivateRedis, type RedisTarget } from '../../packages/harness/src/topology/redis';

/** Contenders known to serve another body on the hostile stream, and what differs (a finding of the benchmark). */
const FINDINGS: Record<string, RegExp> = Object.fromEntries(
  // valkey-glide's default (string) decoder fails the read when a bulk string is not UTF-8: the app answers 500.
  // Its DECODE=bytes twins (Decoder.Bytes) serve the golden body.
  ['node', 'bun', 'deno'].map((runtime) => [`${runtime}-raw-glide`, /^status 500, want 200$/]),
);

const all = loadContenders();
const checked = all.filter((c) => (c.suites.includes('default') && !c.ceiling) || c.settings.decode !== 'default');
const dir = mkdtempSync(join(tmpdir(), 'bench-hostile-'));
let redis: RedisTarget;
let golden: string;
const pids: number[] = [];
const withApp = appStarter(() => ({ redisUrl: redis.url, golden }), pids);

beforeAll(async () => {
  const rdb = join(dir, 'hostile.rdb');
  const made = spawnSync('bun', ['scripts/make-rdb.ts', '--hostile', '--out', rdb], { cwd: ROOT, encoding: 'utf8' });
  if (made.status !== 0) throw new Error(`make-rdb --hostile: ${made.stderr}`);
  redis = await startPrivateRedis(rdb);
  pids.push(redis.server!.pid);
  golden = goldenBody(redis, STREAM_KEY);
}, 60_000);

afterAll(async () => {
  await redis?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('the hostile stream', () => {
  test('its golden body holds every hostile value, U+FFFD where the bytes are not UTF-8', () => {
    const notes = new Set(JSON.parse(golden).entries.map((e: { fields: { note: string } }) => e.fields.note));
    expect(notes).toContain('line\u2028para\u2029end');
    expect(notes).toContain('a\ufffdb');
    expect([...notes].some((n) => (n as string).length > 5000)).toBe(true);
    expect(notes).toContain(String.fromCharCode(...Array.from({ length: 32 }, (_, i) => i), 0x7f));
  });

  for (const c of checked) {
    test(`${c.name}: the golden body${FINDINGS[c.name] ? ' (a known finding)' : ''}`, async () => {
      const verdict = await withApp(c, (app) => verifyContract(app.url, golden, c.page));
      if (FINDINGS[c.name]) expect(verdict.reason ?? 'ok').toMatch(FINDINGS[c.name]!);
      else expect(verdict.reason ?? 'ok').toBe('ok');
    }, 240_000);
  }

  test('everything started here is stopped', async () => {
    await redis.stop();
    await Bun.sleep(200);
    expect(pids.filter(isAlive)).toEqual([]);
  });
});
