// The hostile stream (npm run make-rdb -- --hostile): field values with quotes, backslashes, control characters,
// emoji, U+2028/2029, long values and bytes that are not UTF-8, and entries whose field names are integer-like,
// repeated or `__proto__`, a leading BOM and a name that is not UTF-8. Every contender of the default suite, and each
// with DECODE=bytes or raw, is verified on it against the contract (the golden body from redis-cli's reply): the
// golden body byte for byte, or a body that differs by named causes only (a finding the verdict names). A contender
// whose body differs otherwise is a finding named here, not a failure of the run.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { STREAM_KEY } from '@bench/stream';
import { appStarter } from '../helpers/apps';
import { CAUSES } from '../../packages/harness/src/measure/contract';
import { type Verdict, verifyContract } from '../../packages/harness/src/measure/verify';
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

/** A finding: the causes the contract names, each with its entry and field, joined by "; ". */
const cause = `(?:${Object.values(CAUSES)
  .map((c) => c.text.replace(/[()]/g, '\\$&'))
  .join('|')}) \\(entry [^)]*\\)`;
const NAMED = new RegExp(`^${cause}(?:; ${cause})*$`);

const all = loadContenders();
const checked = all.filter((c) => (c.suites.includes('default') && !c.ceiling) || c.settings.decode !== 'default');
const dir = mkdtempSync(join(tmpdir(), 'bench-hostile-'));
let redis: RedisTarget;
let golden: string;
const verdicts = new Map<string, Verdict>();
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
    // The names: in stream order, a repeated name once with its last value, __proto__ kept, a leading BOM kept.
    expect(golden).toContain('"fields":{"color":"red","2":"two","1":"one"}');
    expect(golden).toContain('"fields":{"color":"blue","font":"karla"}');
    expect(golden).toContain('"fields":{"color":"red","__proto__":"proto"}');
    expect(golden).toContain('"fields":{"note":"\uFEFFA"}');
    expect(golden).toContain('"fields":{"k\uFFFD":"bad byte in the name"}');
  });

  for (const c of checked) {
    test(`${c.name}: the contract${FINDINGS[c.name] ? ' (a known finding)' : ''}`, async () => {
      const verdict = await withApp(c, (app) => verifyContract(app.url, golden, c.page));
      verdicts.set(c.name, verdict);
      if (FINDINGS[c.name]) expect(verdict.reason ?? 'ok').toMatch(FINDINGS[c.name]!);
      else expect(verdict.reason ?? 'ok').toBe('ok');
      // A body that differs by the names' causes only says which, in one line.
      if (verdict.finding) expect(verdict.finding).toMatch(NAMED);
    }, 240_000);
  }

  test('where bodies differ, the causes are named: objects move integer-like names and drop __proto__', () => {
    const findings = [...verdicts.values()].map((v) => v.finding ?? '');
    console.log([...verdicts].map(([n, v]) => `${n}: ${v.finding ?? v.reason ?? 'the golden body'}`).join('\n'));
    expect(findings.some((f) => f.includes(CAUSES.integer.text))).toBe(true);
    // Every JavaScript app of the default suite reads the names into an object: none serves the stream's order.
    const plain = checked.filter((c) => c.settings.decode === 'default' && !FINDINGS[c.name] && verdicts.has(c.name));
    for (const c of plain) expect(verdicts.get(c.name)!.finding ?? '').toContain(CAUSES.integer.text);
  });

  test('everything started here is stopped', async () => {
    await redis.stop();
    await Bun.sleep(200);
    expect(pids.filter(isAlive)).toEqual([]);
  });
});
