// The live writer's own process against a private Redis, beside other tests (what it asserts is behaviour, not a
// rate): at 2,000 writes a second its log stays in order, each write once; --max-seconds ends a writer nobody stops;
// writes Redis never acknowledges within 5 s of the stop exit 1, naming how many. The rate itself:
// tests/alone/writer.test.ts.
import { describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import { readWriterLog } from '../../packages/harness/src/workloads/live/writer';
import { cli } from '../../packages/harness/src/topology/redis';
import { header, increasing, redisAndFolder, startWriter, stop } from '../helpers/writer';

const held = redisAndFolder('writer-stop');

describe("the live writer's process", () => {
  test('2000/s: acks arriving in batches, the log still in order, each write once', async () => {
    const out = join(held.dir, 'fast.jsonl');
    const w = startWriter(['--url', held.redis.url, '--rate', '2000', '--out', out]);
    try {
      await header(out);
      await Bun.sleep(1000);
    } finally {
      expect(await stop(w)).toEqual({ code: 0, stderr: '' });
    }
    const { written } = readWriterLog(out);
    expect(written.length).toBeGreaterThan(500);
    expect(written.map((e) => e.i)).toEqual(written.map((_, i) => i));
    for (let k = 1; k < written.length; k++)
      if (!increasing(written[k - 1]!.id, written[k]!.id)) throw new Error(`id ${written[k]!.id} logged late`);
  }, 15_000);

  test('--max-seconds: a writer nobody stops exits by itself, 0', async () => {
    const w = startWriter([
      '--url',
      held.redis.url,
      '--rate',
      '0',
      '--max-seconds',
      '1',
      '--out',
      join(held.dir, 'max.jsonl'),
    ]);
    const code = await Promise.race([w.exited, Bun.sleep(8000).then(() => null)]);
    if (code === null) w.kill('SIGKILL');
    expect(code).toBe(0);
  }, 15_000);

  test('writes Redis never acknowledges within 5 s of the stop: exit 1, naming how many', async () => {
    const out = join(held.dir, 'paused.jsonl');
    const w = startWriter(['--url', held.redis.url, '--rate', '100', '--out', out]);
    try {
      await header(out);
      cli(held.redis, ['CLIENT', 'PAUSE', '8000', 'WRITE']);
      await Bun.sleep(300);
      w.kill('SIGTERM');
      const code = await Promise.race([w.exited, Bun.sleep(7500).then(() => null)]);
      expect(code).toBe(1);
      expect(await new Response(w.stderr).text()).toMatch(
        /^writer: stopping: \d+ writes still unacknowledged after 5 s\n$/,
      );
    } finally {
      cli(held.redis, ['CLIENT', 'UNPAUSE']);
      w.kill('SIGKILL');
    }
  }, 15_000);
});
