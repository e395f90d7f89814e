// The contract gate's words and checks (measure/verify.ts): where two bodies first differ, in bytes from 0, and a
// response refused for its status or its content type even when its body is the golden one.
import { describe, expect, test } from 'bun:test';
import { probeOnce } from '../../packages/harness/src/measure/probe';
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

/** A server answering `body` with `type` and `status` (each changeable) on 127.0.0.1; stopped after `f`. */
async function serving(f: (url: string, set: (b: string, t: string) => void) => Promise<void>) {
  let [body, type] = [golden, 'application/json'];
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch: () => new Response(body, { headers: { 'content-type': type } }),
  });
  try {
    await f(`http://127.0.0.1:${server.port}/`, (b, t) => ([body, type] = [b, t]));
  } finally {
    server.stop(true);
  }
}

describe("a response's body held to the contract", () => {
  test('other data is refused with where it differs; the size is in bytes; a JSON-ish type is not JSON', async () => {
    await serving(async (url, set) => {
      set(golden.replace('"b"', '"c"'), 'application/json');
      const other = await verifyContract(url, golden, false);
      expect(other.ok).toBe(false);
      expect(other.reason).toStartWith('body differs from the golden body at byte 39 ');
      const wide = golden.replace('"b"', '"é"');
      set(wide, 'application/json');
      expect(await verifyContract(url, wide, false)).toEqual({ ok: true, bytes: wide.length + 1 });
      set(golden, 'text/json');
      expect(await verifyContract(url, golden, false)).toEqual({
        ok: false,
        reason: 'content-type "text/json", want application/json',
      });
    });
  });

  test("a page carries the body in its script tag, its '<' escaped; --body any refuses an empty body", async () => {
    const lt = golden.replace('"b"', '"<b>"');
    const page = `<html><script id="stream-json" type="application/json">${lt.replaceAll('<', '\\u003c')}</script>`;
    await serving(async (url, set) => {
      set(page, 'text/html; charset=utf-8');
      expect(await verifyContract(url, lt, true)).toEqual({ ok: true, bytes: Buffer.byteLength(page) });
      set('', 'text/plain');
      expect(await verifyContract(url, golden, 'any')).toEqual({ ok: false, reason: 'empty body' });
      set('x', 'text/plain');
      expect(await verifyContract(url, golden, 'any')).toEqual({ ok: true, bytes: 1 });
    });
  });
});

describe('one probe of a route', () => {
  test('its status, body, and a receive time after its send; a refused connection is status 0', async () => {
    await serving(async (url) => {
      const p = await probeOnce(url);
      expect([p.status, p.body]).toEqual([200, golden]);
      expect(p.received_ms).toBeGreaterThan(p.sent_ms);
    });
    const refused = await probeOnce('http://127.0.0.1:1/');
    expect(refused.status).toBe(0);
    expect(refused.body.length).toBeGreaterThan(0);
  });
});
