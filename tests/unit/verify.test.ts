// The contract gate's words and checks (measure/verify.ts): where two bodies first differ, in bytes from 0, and a
// response refused for its status or its content type even when its body is the golden one.
import { describe, expect, test } from 'bun:test';
import { differingAt, firstDifference, verifyContract } from '../../packages/harness/src/measure/verify';

const golden = '{"entries":[{"id":"1-0","fields":{"a":"b"}}]}';

describe('where a body first differs from the golden one', () => {
  test('at byte 0: an HTML error page against the JSON body', () => {
    expect(differingAt('<html>', '{"entries"')).toBe(0);
    expect(firstDifference('<html>', '{"entries"')).toStartWith('body differs from the golden body at byte 0 ');
    expect(differingAt(golden, golden)).toBe(-1);
    expect(firstDifference(golden, golden)).toBeNull();
  });

  test('the offset in bytes, not characters: a two-byte é before the difference counts twice', () => {
    const got = '{"a":"é","b":"x"}';
    const want = '{"a":"é","b":"y"}';
    expect(differingAt(got, want)).toBe(14);
    expect(firstDifference(got, want)).toStartWith('body differs from the golden body at byte 15 (got 17 chars');
  });
});

describe('a response that carries the golden body', () => {
  test('held to status 200 and application/json: 203, or text/plain, is refused', async () => {
    let status = 200;
    let type = 'application/json; charset=utf-8';
    const server = Bun.serve({
      port: 0,
      hostname: '127.0.0.1',
      fetch: () => new Response(golden, { status, headers: { 'content-type': type } }),
    });
    try {
      const url = `http://127.0.0.1:${server.port}/`;
      expect(await verifyContract(url, golden, false)).toEqual({ ok: true, bytes: Buffer.byteLength(golden) });
      status = 203;
      expect(await verifyContract(url, golden, false)).toEqual({ ok: false, reason: 'status 203, want 200' });
      status = 200;
      type = 'text/plain';
      expect(await verifyContract(url, golden, false)).toEqual({
        ok: false,
        reason: 'content-type "text/plain", want application/json',
      });
    } finally {
      server.stop(true);
    }
  });
});
