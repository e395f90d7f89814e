// A fixed stream's run, checked after it (workloads/read.ts bodyAfterRun): oha's byte count must be the verified
// body's length times the 2xx responses, and with non-2xx responses (other bodies) still at least that.
import { afterAll, describe, expect, test } from 'bun:test';
import type { RunRecord } from '../../packages/harness/src/model/results';
import { bodyAfterRun } from '../../packages/harness/src/workloads/read';

const golden = '{"entries":[{"id":"1-0","fields":{"a":"b"}}]}';
const server = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  fetch: () => new Response(golden, { headers: { 'content-type': 'application/json' } }),
});
afterAll(() => server.stop(true));
const url = `http://127.0.0.1:${server.port}/`;
const len = Buffer.byteLength(golden);
/** 10,000 responses, `non2xx` of them other statuses; each 2xx body `short` bytes short, each other `other` long. */
const run = (non2xx: number, short: number, other = 0) =>
  ({
    round: 1,
    responses: 10_000,
    errors: { non_2xx: non2xx, aborted: 0, other: 0 },
    expected_bytes: len,
    total_bytes: (10_000 - non2xx) * (len - short) + non2xx * other,
  }) as unknown as RunRecord;

describe('the bytes oha counted under load', () => {
  test('every 2xx the whole body: none short, with or without non-2xx responses among them', async () => {
    expect(await bodyAfterRun(url, golden, false, run(0, 0))).toBeNull();
    expect(await bodyAfterRun(url, golden, false, run(3, 0, 20))).toBeNull();
    expect((await bodyAfterRun(url, golden, false, run(0, 10)))?.status).toBe('invalid');
    // One 503 no longer switches the check off for the 9,999 short bodies beside it.
    expect((await bodyAfterRun(url, golden, false, run(1, 10)))?.reason).toMatch(/not the verified body/);
  });
});
