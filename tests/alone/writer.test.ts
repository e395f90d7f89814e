// The live writer against a private Redis: rate without drift, exact MAXLEN, ordered ids, a
// clean stop, and a log from which the checker rebuilds the stream exactly.
import { describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { STREAM_KEY } from '@bench/stream';
import { freePort } from '../../packages/harness/src/system/net';
import { canonicalBody, judge, sequenceOf } from '../../packages/harness/src/workloads/live/checker';
import { dueAt, readWriterLog } from '../../packages/harness/src/workloads/live/writer';
import { nowMs } from '../../packages/harness/src/system/clock';
import { cli, goldenBody } from '../../packages/harness/src/topology/redis';
import { header, increasing, redisAndFolder, startWriter, stop } from '../helpers/writer';

const held = redisAndFolder('live-writer');

describe('live writer', () => {
  test('100/s for 10 s: rate, MAXLEN, order, and the stream rebuilt from the log', async () => {
    const out = join(held.dir, 'rate.jsonl');
    const w = startWriter([
      '--url',
      held.redis.url,
      '--key',
      STREAM_KEY,
      '--rate',
      '100',
      '--maxlen',
      '339',
      '--seed',
      '7',
      '--out',
      out,
    ]);
    try {
      const start = await header(out);
      await Bun.sleep(Math.max(0, start + 10_000 - nowMs()));
    } finally {
      const { code, stderr } = await stop(w);
      expect(stderr).toBe('');
      expect(code).toBe(0);
    }
    const log = readWriterLog(out);
    const { written, initial } = log;
    expect(initial).toHaveLength(339);
    expect(written.length).toBeGreaterThanOrEqual(950);
    expect(written.length).toBeLessThanOrEqual(1050);
    expect(written.map((e) => e.i)).toEqual(written.map((_, i) => i));
    const acked = written.map((e) => e.acked_ms);
    const rate = ((written.length - 1) * 1000) / (acked.at(-1)! - acked[0]!);
    expect(Math.abs(rate - 100)).toBeLessThan(5);
    // No drift: the last write left close to its slot on the schedule, not a sum of sleeps later.
    expect(written.at(-1)!.sent_ms - dueAt(log.start_ms, written.length - 1, 100)).toBeLessThan(50);
    const ids = [...initial, ...written].map((e) => e.id);
    for (let k = 1; k < ids.length; k++)
      if (!increasing(ids[k - 1]!, ids[k]!)) throw new Error(`id ${ids[k]} after ${ids[k - 1]}`);
    // Same field names, same order, values seen before.
    const names = JSON.stringify(Object.keys(initial[0]!.fields));
    for (const e of written) expect(JSON.stringify(Object.keys(e.fields))).toBe(names);
    const widths = new Set(initial.map((e) => e.fields.width));
    expect(written.filter((e) => !widths.has(e.fields.width))).toEqual([]);

    expect(cli(held.redis, ['XLEN', STREAM_KEY]).trim()).toBe('339');
    const seq = sequenceOf(log);
    const golden = goldenBody(held.redis, STREAM_KEY);
    expect(canonicalBody(seq.slice(-339))).toBe(golden);
    // The checker agrees: the final stream, read now, is current.
    const { results } = judge([{ sent_ms: nowMs(), received_ms: nowMs(), status: 200, body: golden }], seq, 339, 50);
    expect(results[0]).toMatchObject({ ok: true, last_index: seq.length - 1, staleness_ms: 0 });
  }, 30_000);

  test('rate 0 writes nothing and still stops cleanly', async () => {
    const out = join(held.dir, 'zero.jsonl');
    const w = startWriter(['--url', held.redis.url, '--rate', '0', '--out', out]);
    await header(out);
    await Bun.sleep(300);
    expect(await stop(w)).toEqual({ code: 0, stderr: '' });
    expect(readWriterLog(out).written).toEqual([]);
  }, 15_000);

  test('a Redis error exits non-zero with one line naming the cause', async () => {
    cli(held.redis, ['SET', 'live:not-a-stream', 'x']);
    const wrongType = startWriter([
      '--url',
      held.redis.url,
      '--key',
      'live:not-a-stream',
      '--out',
      join(held.dir, 'wrong.jsonl'),
    ]);
    expect(await wrongType.exited).toBe(1);
    expect(await new Response(wrongType.stderr).text()).toMatch(
      /^writer: XRANGE live:not-a-stream: WRONGTYPE[^\n]*\n$/,
    );

    const nobody = startWriter([
      '--url',
      `redis://127.0.0.1:${await freePort()}`,
      '--out',
      join(held.dir, 'nobody.jsonl'),
    ]);
    expect(await nobody.exited).toBe(1);
    expect(await new Response(nobody.stderr).text()).toMatch(
      /^writer: cannot connect to redis:\/\/127\.0\.0\.1:\d+: [^\n]*ECONNREFUSED[^\n]*\n$/,
    );
  }, 15_000);
});
