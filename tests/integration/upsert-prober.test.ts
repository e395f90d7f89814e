// --workload upsert around a window, on a private Redis and no app: the read-back after a window reads the prober's
// key with the key space's, and the prober's writes that got no answer are not counted as responses served beside oha.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { itemKey } from '@bench/stream';
import { UPSERT } from '../../packages/harness/src/workloads/upsert';
import { keySpace, PROBE_BURST, readBack } from '../../packages/harness/src/workloads/upsert/measure';
import { cli, startPrivateRedis, type RedisTarget } from '../../packages/harness/src/topology/redis';

let redis: RedisTarget;
beforeAll(async () => {
  redis = await startPrivateRedis(null);
});
afterAll(async () => {
  await redis?.stop();
});

describe('upsert around a window', () => {
  test("the read-back: each key of the space that exists, and the prober's key, with applied and version", () => {
    const space = keySpace(10);
    cli(redis, ['HSET', itemKey(space.idAt(3)), 'applied', '2', 'version', '5']);
    cli(redis, ['HSET', itemKey(space.probeId), 'applied', '4', 'version', '9']);
    const rows = readBack(redis, space).sort((a, b) => a.id.localeCompare(b.id));
    expect(rows).toEqual([
      { id: space.idAt(3), applied: 2, version: 5 },
      { id: space.probeId, applied: 4, version: 9 },
    ]);
  });

  test("the prober's writes to an app that refuses them: none served, each unanswered in the record", async () => {
    // Port 1 refuses at once: every write of the one burst under way when the window stops gets no answer.
    const around = UPSERT.around({ redis, own: { keys: 1 }, write: 'lua' } as never, 'http://127.0.0.1:1', 0)!;
    expect(await around.stop()).toBe(0);
    const window = { statuses: {}, unanswered: 0, commands: {}, fromMs: 0, endedAtMs: 0 };
    const record = (await around.record(window)) as { data: Record<string, unknown> };
    expect(record.data).toMatchObject({ unanswered: PROBE_BURST, acked_applied: 0, keys_written: 0, problem: null });
  });
});
