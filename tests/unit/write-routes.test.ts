// The write routes of @bench/stream (packages/stream/src/writes) on a fake connection that records each command:
// the upsert answers its branch in the status with the body's own version, a bad body is refused, the app's clock
// never repeats a version, xadd-trim appends the request's id first and answers 201, WATCH ignores an equal version,
// and a script with no keys routes nowhere.
import { describe, expect, test } from 'bun:test';
import {
  DEFAULT_SETTINGS,
  parseUpsertBody,
  routingKey,
  type StreamOptions,
  type TxConnection,
  versionClock,
  WRITE_ROUTES,
  type WriteConnection,
  watchUpsert,
} from '@bench/stream';

/** A connection that records every command; EVALSHA answers the next of `branches`, XADD an entry id. */
function fakeConn(branches: string[] = []) {
  const sent: string[][] = [];
  const conn: WriteConnection = {
    call: async (args) => {
      sent.push(args);
      if (args[0] === 'SCRIPT') return 'sha1';
      if (args[0] === 'XADD') return '1700000000000-0';
      return branches.shift();
    },
    dedicated: async () => Promise.reject(new Error('no WATCH here')),
    close: async () => {},
  };
  return { conn, sent };
}
const opts = (write: string) =>
  ({ key: 'stream:items', settings: { ...DEFAULT_SETTINGS, write } }) as unknown as StreamOptions;
const RECORD = '{"name":"n","color":"red"}';

describe('the upsert route', () => {
  test('each branch in its status, run with the version the body sent', async () => {
    const { conn, sent } = fakeConn(['created', 'updated', 'ignored']);
    const route = await WRITE_ROUTES.upsert(conn, opts('lua'));
    const body = (version: number) => JSON.stringify({ ...JSON.parse(RECORD), version });
    const got = [await route('a', body(5)), await route('a', body(7)), await route('a', body(6))];
    expect(got.map((g) => [g.status, JSON.parse(g.json)])).toEqual([
      [201, { result: 'created', version: 5, retries: 0 }],
      [200, { result: 'updated', version: 7, retries: 0 }],
      [202, { result: 'ignored', version: 6, retries: 0 }],
    ]);
    expect(sent[1]).toEqual(['EVALSHA', 'sha1', '1', 'item:{a}', '5', 'name', 'n', 'color', 'red']);
  });

  test("a body with no version: the app's clock; a bad body or no id: 400, nothing sent", async () => {
    const { conn, sent } = fakeConn(['created']);
    const route = await WRITE_ROUTES.upsert(conn, opts('lua'));
    const before = Date.now() * 1000;
    expect(JSON.parse((await route('b', RECORD)).json).version).toBeGreaterThanOrEqual(before);
    for (const [id, bad] of [
      ['b', '{oops'],
      ['b', '{"version":0}'],
      ['', RECORD],
    ])
      expect((await route(id!, bad)).status).toBe(400);
    expect(sent.length).toBe(2);
  });

  test('the body: string fields of the record only, a version a positive safe integer', () => {
    expect(parseUpsertBody({ name: 'n', color: 5, other: 'x', version: '12' })).toEqual({
      fields: { name: 'n' },
      version: 12,
    });
    for (const version of [0, -1, 1.5, 2 ** 53, 'x']) expect(parseUpsertBody({ name: 'n', version })).toBeNull();
    expect(parseUpsertBody('[1')).toBeNull();
  });

  test("the app's clock: every version newer than the one before, however fast the requests come", () => {
    const clock = versionClock();
    const vs = Array.from({ length: 2000 }, () => clock());
    expect(vs.every((v, i) => i === 0 || v > vs[i - 1]!)).toBe(true);
  });

  test('WATCH: an equal version is ignored, nothing committed', async () => {
    const calls: string[] = [];
    const tx: TxConnection = {
      watch: async () => void calls.push('watch'),
      hget: async () => '5',
      unwatch: async () => void calls.push('unwatch'),
      commit: async () => (calls.push('commit'), true),
      close: async () => {},
    };
    expect(await watchUpsert(tx, 'a', { name: 'n' }, 5)).toEqual({ result: 'ignored', version: 5, retries: 0 });
    expect(await watchUpsert(tx, 'a', { name: 'n' }, 6)).toEqual({ result: 'updated', version: 6, retries: 0 });
    expect(calls).toEqual(['watch', 'unwatch', 'watch', 'commit']);
  });

  test('on a cluster, a script routes by its first key; one with no keys, or PING, by none', () => {
    expect(routingKey(['EVALSHA', 'sha1', '1', 'item:{a}', '5'])).toBe('item:{a}');
    expect(routingKey(['FCALL', 'bench_upsert', '1', 'item:{b}'])).toBe('item:{b}');
    expect(routingKey(['EVAL', 'return 1', '0', 'x'])).toBeUndefined();
    expect(routingKey(['PING'])).toBeUndefined();
  });
});

describe('the xadd-trim route', () => {
  test("one XADD capped with MAXLEN ~, the request's id first, answered 201 with the entry's id", async () => {
    const { conn, sent } = fakeConn();
    const route = await WRITE_ROUTES['xadd-trim'](conn, opts('lua'));
    expect(await route('a1', RECORD)).toEqual({ status: 201, json: '{"id":"1700000000000-0"}' });
    expect(sent).toEqual([
      ['XADD', 'stream:items', 'MAXLEN', '~', '1000', '*', 'id', 'a1', 'name', 'n', 'color', 'red'],
    ]);
    expect((await route('a2', '{oops')).status).toBe(400);
    expect(sent.length).toBe(1);
  });
});
