// A fixed stream's run, checked after it (workloads/read.ts bodyAfterRun): oha's byte count must be the verified
// body's length times the 2xx responses, plus at most a body per non-2xx one; and the app must still answer 200.
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

  test('beside non-2xx responses: 2xx bodies a byte long each, or a byte short in all, are invalid', async () => {
    // One 503 (4 bytes) and every one of the 9,999 2xx bodies a byte longer: more than one body's worth over.
    const invalid = { status: 'invalid', reason: expect.stringMatching(/not the verified body/) };
    expect(await bodyAfterRun(url, golden, false, run(1, -1, 4))).toMatchObject(invalid);
    // Five empty 503s and the 9,995 2xx bodies a byte short between them: fewer bytes than the 2xx ones hold.
    const short = { ...run(5, 0), total_bytes: 9_995 * len - 1 } as RunRecord;
    expect(await bodyAfterRun(url, golden, false, short)).toMatchObject(invalid);
  });
});

describe('the bytes of other statuses, and of pages', () => {
  test('one non-2xx response a byte longer than a whole body: more than its allowance, invalid', async () => {
    expect(await bodyAfterRun(url, golden, false, run(1, 0, len))).toBeNull();
    expect((await bodyAfterRun(url, golden, false, run(1, 0, len + 1)))?.reason).toMatch(/not the verified body/);
  });

  test("a page carrying the body is held to its bytes too; only 'any' is not", async () => {
    expect((await bodyAfterRun(url, golden, true, run(0, 10)))?.reason).toMatch(/not the verified body/);
    expect((await bodyAfterRun(url, golden, 'own', run(0, 10)))?.reason).toMatch(/not the verified body/);
  });
});

describe('the app after the run', () => {
  test('answering 500 after a clean window is invalid; after non-2xx under load, the gate judges', async () => {
    const failing = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('oops', { status: 500 }) });
    try {
      const at = `http://127.0.0.1:${failing.port}/`;
      const clean = run(0, 0);
      const fault = await bodyAfterRun(at, golden, false, clean);
      expect(fault).toEqual({
        status: 'invalid',
        reason: 'run 1: the body changed under load; after the run, status 500, want 200',
      });
      expect(clean.after_check).toBe('status 500, want 200');
      // Three non-2xx already counted under load: the error-rate gate judges them, not this check.
      expect(await bodyAfterRun(at, golden, false, run(3, 0, 20))).toBeNull();
    } finally {
      failing.stop(true);
    }
  });
});
