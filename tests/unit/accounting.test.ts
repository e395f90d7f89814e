// The upsert accounting on hand-made windows: a clean run, a lost update, an invented write, a
// key created twice, a stale version, and what unanswered requests allow; the probers of upsert and
// xadd-trim against a fake app that answers too late.
import { describe, expect, test } from 'bun:test';
import { account, type Acked, NO_ANSWER } from '../../packages/harness/src/workloads/upsert/accounting';
import { keySpace, poolUpsert, probeBurst, upsertRequest } from '../../packages/harness/src/workloads/upsert/measure';
import type { UpsertRecord } from '../../packages/harness/src/workloads/upsert/record';
import { accountTrim, type TrimProbe } from '../../packages/harness/src/workloads/xadd-trim/accounting';
import { probeOnce } from '../../packages/harness/src/workloads/xadd-trim/measure';

/**
 * A fake app on a free port: `answer` gets each POST's id and body and returns its status and JSON, or null to hold
 * the request until the client gives up (a write the app made, answered too late).
 */
function fakeApp(answer: (id: string, body: { version?: number }) => { status: number; json: object } | null) {
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(req) {
      const id = new URL(req.url).pathname.split('/').pop()!;
      const got = answer(id, await req.json());
      if (!got) await new Promise((r) => req.signal.addEventListener('abort', r));
      return new Response(JSON.stringify(got?.json ?? {}), { status: got?.status ?? 500 });
    },
  });
  return { url: `http://127.0.0.1:${server.port}`, stop: () => server.stop(true) };
}

const probe = (id: string, result: string, version: number): Acked => ({
  id,
  status: result === 'created' ? 201 : result === 'updated' ? 200 : 202,
  result,
  version,
});

describe('upsert accounting', () => {
  test('a clean window: applied counters sum to the 201s and 200s, each key created once, acked versions kept', () => {
    const stored = [
      { id: 'a', applied: 6, version: 900 },
      { id: 'b', applied: 3, version: 700 },
    ];
    const a = account(
      { '201': 1, '200': 6, '202': 4 },
      [probe('b', 'created', 100), probe('b', 'updated', 700)],
      stored,
      'lua',
    );
    expect(a).toMatchObject({
      acked_applied: 9,
      applied: 9,
      keys_written: 2,
      lost: 0,
      invented: 0,
      stale: 0,
      problem: null,
    });
    expect(a.branches).toEqual({ created: 2, updated: 7, ignored: 4, conflict: 0, pong: 0, error: 0 });
  });

  test('a lost update: more acknowledged than applied, with the counts named', () => {
    const a = account({ '201': 1, '200': 10 }, [], [{ id: 'a', applied: 8, version: 5 }], 'watch');
    expect(a.lost).toBe(3);
    expect(a.problem).toBe(
      'lost updates: 11 writes acknowledged as created or updated, 8 applied (sum of applied over 1 keys): 3 lost',
    );
  });

  test('an invented write: applied but never acknowledged, beyond what unanswered requests allow', () => {
    const stored = [{ id: 'a', applied: 12, version: 5 }];
    expect(account({ '201': 1, '200': 9 }, [], stored, 'lua').invented).toBe(2);
    // Two requests that got a 500 (or none at all) may each have written: then nothing is invented.
    expect(account({ '201': 1, '200': 9, '500': 1 }, [], stored, 'lua', 1)).toMatchObject({
      invented: 0,
      unanswered: 2,
      problem: null,
    });
  });

  test("a key whose newest acknowledged version is gone by the window's end: stale, an older one kept", () => {
    // Both writes read back at 2000 right after their bursts; the key ends at 1500: the newer write was lost.
    const seen = (p: Acked) => ({ ...p, seen: 2000 });
    const probes = [seen(probe('a', 'updated', 1000)), seen(probe('a', 'updated', 2000))];
    const a = account({ '201': 1, '200': 2 }, probes, [{ id: 'a', applied: 5, version: 1500 }], 'lua');
    expect(a).toMatchObject({ stale: 1 });
    expect(a.problem).toContain("the harness's write of version 2000");
  });

  test('a key that exists with no response saying it was created', () => {
    const a = account({ '200': 2 }, [], [{ id: 'a', applied: 2, version: 5 }], 'lua');
    expect(a.problem).toBe('0 responses said created, but 1 keys exist');
  });

  test('lost updates of both kinds: a counter short of the acknowledged and a stale key, counted once', () => {
    const a = account(
      { '201': 1, '200': 10 },
      [probe('a', 'updated', 2000)],
      [{ id: 'a', applied: 9, version: 1500 }],
      'lua',
    );
    // 12 acknowledged (the prober's write among them), 9 applied: 3 short; and the prober's version gone, which may
    // be one of the 3 never applied: at least 3 lost, both named.
    expect(a).toMatchObject({ stale: 1, lost: 3 });
    expect(a.problem).toContain('9 applied (sum of applied over 1 keys): 3 lost');
    expect(a.problem).toContain('1 acknowledged write gone');
    // One write answered "updated" and never applied: short by one and stale, one write lost, not two.
    const once = account(
      {},
      [
        { id: 'p', sent: 1001, status: 201, result: 'created', version: 1001, seen: 1001 },
        { id: 'p', sent: 1002, status: 200, result: 'updated', version: 1002, seen: 1001 },
      ],
      [{ id: 'p', applied: 1, version: 1001 }],
      'lua',
    );
    expect(once).toMatchObject({ acked_applied: 2, applied: 1, stale: 1, lost: 1 });
    // Every write applied (3 of 3) but the prober's overwritten by an older version: stale, so lost.
    expect(
      account({ '201': 1, '200': 1 }, [probe('a', 'updated', 2000)], [{ id: 'a', applied: 3, version: 1500 }], 'lua')
        .lost,
    ).toBe(1);
  });

  test('a key created twice: two responses said created for one key', () => {
    const a = account({ '201': 2, '200': 3 }, [], [{ id: 'a', applied: 5, version: 5 }], 'watch');
    expect(a.problem).toBe('2 responses said created, but 1 keys exist');
  });

  test('a stale version: an acknowledged write overwritten by an older one is a lost update, with its key', () => {
    const a = account(
      { '201': 1, '200': 4 },
      [probe('a', 'updated', 2000)],
      [{ id: 'a', applied: 6, version: 1500 }],
      'watch',
    );
    expect(a).toMatchObject({ stale: 1, lost: 1 });
    expect(a.problem).toContain(
      `key item:{a} holds version 1500; the harness's write of version 2000 was answered "updated"`,
    );
  });

  test('a write answered "ignored" says its key held that version or newer: a key older than that lost it', () => {
    const ignored = (stored: number) =>
      account({ '201': 1, '200': 4 }, [probe('a', 'ignored', 2000)], [{ id: 'a', applied: 5, version: stored }], 'lua');
    // The app dropped the write and said it was old: the key never held 2000.
    expect(ignored(1500)).toMatchObject({ stale: 1, lost: 1 });
    expect(ignored(1500).problem).toContain(
      `holds version 1500; the harness's write of version 2000 was answered "ignored"`,
    );
    expect(ignored(2000).problem).toBeNull();
    expect(ignored(2500).problem).toBeNull();
    // Right after its burst too, by the version the harness sent (the reply's may say anything).
    const burst = [
      { ...probe('p', 'created', 3001), sent: 3001, seen: 3002 },
      { ...probe('p', 'updated', 3002), sent: 3002, seen: 3002 },
      { ...probe('p', 'ignored', 3002), sent: 3003, seen: 3002 },
    ];
    const a = account({}, burst, [{ id: 'p', applied: 2, version: 3002 }], 'lua');
    expect(a).toMatchObject({ stale: 1, lost: 1 });
    expect(a.problem).toContain(`holds version 3002; the harness's write of version 3003 was answered "ignored"`);
  });

  test('a burst read back right after its ack: an older version there is a lost update, even if newer came', () => {
    const burst = [2001, 2002, 2003].map((v) => ({ ...probe('p', v === 2001 ? 'created' : 'updated', v), seen: 2002 }));
    const a = account({}, burst, [{ id: 'p', applied: 3, version: 2010 }], 'watch');
    expect(a).toMatchObject({ stale: 1, lost: 1 });
    expect(a.problem).toContain(
      `key item:{p} holds version 2002; the harness's write of version 2003 was answered "updated"`,
    );
    expect(
      account(
        {},
        burst.map((p) => ({ ...p, seen: 2003 })),
        [{ id: 'p', applied: 3, version: 2003 }],
        'watch',
      ).problem,
    ).toBeNull();
  });

  test("one overwritten write in the window's last burst is one lost update, not two", () => {
    // The burst's newest acknowledged write (v+3) overwritten by v+2, seen right after the burst and at the end.
    const v = 1_000_000;
    const probes = [
      { ...probe('p', 'created', v + 1), seen: v + 2 },
      { ...probe('p', 'updated', v + 3), seen: v + 2 },
      { ...probe('p', 'updated', v + 2), seen: v + 2 },
    ];
    const a = account({}, probes, [{ id: 'p', applied: 3, version: v + 2 }], 'watch');
    expect(a).toMatchObject({ acked_applied: 3, applied: 3, stale: 1, lost: 1 });
    expect(a.problem).toContain('lost updates: 1 acknowledged write gone, its key holding an older version');
  });

  test("a probe write with no answer is unanswered, and its burst's answered writes still count", async () => {
    // The app makes all three writes, and answers v+3 only after the prober gave up on it.
    let newest = 0;
    const app = fakeApp((_id, { version }) => {
      newest = Math.max(newest, version!);
      if (version! % 1000 === 3) return null;
      return { status: version! % 1000 === 1 ? 201 : 200, json: { result: 'updated', version } };
    });
    const reader = { send: async () => [String(newest)] };
    const halt = new AbortController();
    const probes: Acked[] = [];
    const burst = probeBurst(app.url, 'p', reader, probes, halt.signal);
    await Bun.sleep(300);
    halt.abort();
    await burst;
    app.stop();
    expect(probes.map((p) => p.status).sort()).toEqual([NO_ANSWER, 200, 201]);
    // Applied 3, acknowledged 2: the write with no answer may have written, so nothing is invented.
    const a = account({}, probes, [{ id: 'p', applied: 3, version: newest }], 'lua');
    expect(a).toMatchObject({ acked_applied: 2, applied: 3, unanswered: 1, invented: 0, lost: 0, problem: null });
    expect(a.branches.error).toBe(0);
    // A key read that fails after the burst keeps its answers, checked at the end of the window only.
    const failing = { send: async () => Promise.reject(new Error('read timed out')) };
    const app2 = fakeApp((_id, { version }) => ({ status: 200, json: { result: 'updated', version } }));
    const kept: Acked[] = [];
    await probeBurst(app2.url, 'q', failing, kept);
    app2.stop();
    expect(kept.map((p) => [p.status, p.seen])).toEqual([
      [200, undefined],
      [200, undefined],
      [200, undefined],
    ]);
  });

  test('a key the prober wrote that is gone at the end is stale, its version none', () => {
    const a = account({}, [probe('p', 'created', 2000)], [], 'lua');
    expect(a).toMatchObject({ stale: 1, keys_written: 0 });
    expect(a.problem).toContain(`key item:{p} holds version none; the harness's write of version 2000 was answered`);
  });

  test('keys created by requests that got no answer: as many keys as 201s and unanswered, no problem', () => {
    const stored = [
      { id: 'a', applied: 1, version: 5 },
      { id: 'b', applied: 1, version: 5 },
    ];
    expect(account({ '201': 1, '500': 1 }, [], stored, 'lua')).toMatchObject({ invented: 0, problem: null });
    expect(account({ '201': 1 }, [], stored, 'lua').problem).toContain('1 responses said created, but 2 keys exist');
  });

  test('a burst: each write with the version it sent, the key read back right after (none: null)', async () => {
    const got: number[] = [];
    const app = fakeApp((_id, { version }) => {
      got.push(version!);
      return { status: 200, json: { result: 'updated', version } };
    });
    const probes: Acked[] = [];
    await probeBurst(app.url, 'p', { send: async () => [null] }, probes);
    app.stop();
    expect(probes.map((p) => p.sent).sort()).toEqual([...got].sort());
    expect(probes.every((p) => p.sent === p.version && p.seen === null)).toBe(true);
    expect(new Set(got).size).toBe(3);
  });

  test('windows pooled: counts summed, stale apart from lost, the first problem kept whichever window has it', () => {
    const w = (o: Partial<UpsertRecord>) =>
      ({ ...account({}, [], [], 'lua'), keys: 100, prefix: 'x', ...o }) as UpsertRecord;
    const pooled = poolUpsert([
      w({ keys_written: 40, lost: 3, stale: 1 }),
      w({ keys_written: 50, lost: 2, stale: 2, problem: 'lost updates: 2' }),
    ]);
    expect(pooled).toMatchObject({ keys_written: 90, lost: 5, stale: 3, problem: 'lost updates: 2' });
  });

  test('409s and the PING floor: conflicts write nothing, pongs write nothing', () => {
    expect(account({ '201': 1, '200': 2, '409': 5 }, [], [{ id: 'a', applied: 3, version: 1 }], 'watch')).toMatchObject(
      { problem: null, branches: { conflict: 5 } },
    );
    expect(account({ '200': 50 }, [], [], 'ping')).toMatchObject({
      acked_applied: 0,
      applied: 0,
      problem: null,
      branches: { pong: 50 },
    });
  });

  test('key spaces: K ids drawn by a regex of log10(K) digits, fresh per window; oha gets the URL as a regex', () => {
    const one = keySpace(1);
    const hundred = keySpace(100);
    expect(one.regex).toBe(one.prefix);
    expect(one.idAt(0)).toBe(one.prefix);
    expect(hundred.regex).toBe(`${hundred.prefix}[0-9]{2}`);
    expect([hundred.idAt(0), hundred.idAt(99)]).toEqual([`${hundred.prefix}00`, `${hundred.prefix}99`]);
    expect(hundred.prefix).not.toBe(one.prefix);
    expect(upsertRequest('http://127.0.0.1:3000/', hundred)).toMatchObject({
      url: `http://127.0.0.1:3000/items/${hundred.prefix}[0-9]{2}`,
      method: 'POST',
      randRegex: true,
    });
  });
});

describe('xadd-trim accounting', () => {
  const counts = { statuses: {}, unanswered: 0, addedBefore: 10, length: 500, cap: 1100 };
  test('a probe write with no answer is unanswered; one whose read-back failed is neither found nor lost', async () => {
    // The app appends, and answers only after the prober gave up.
    const app = fakeApp(() => null);
    const reader = { send: async () => [['1-0', []]] };
    const halt = new AbortController();
    const probes: TrimProbe[] = [];
    const once = probeOnce(app.url, 'p1', reader, probes, halt.signal);
    await Bun.sleep(300);
    halt.abort();
    await once;
    app.stop();
    expect(probes).toEqual([{ status: NO_ANSWER, found: false }]);
    expect(accountTrim({ ...counts, probes, addedAfter: 11 })).toMatchObject({
      acked: 0,
      errors: 0,
      unanswered: 1,
      invented: 0,
      probes: 0,
      problem: null,
    });
    // Answered 201, then its read-back fails: acknowledged (the counter accounts it), not said missing.
    const app2 = fakeApp(() => ({ status: 201, json: { id: '5-0' } }));
    let calls = 0;
    const flaky = { send: async () => (++calls > 1 ? Promise.reject(new Error('read timed out')) : [['1-0', []]]) };
    const unchecked: TrimProbe[] = [];
    await probeOnce(app2.url, 'p2', flaky, unchecked);
    app2.stop();
    expect(unchecked).toEqual([{ status: 201, found: false, unchecked: true }]);
    expect(accountTrim({ ...counts, probes: unchecked, addedAfter: 11 })).toMatchObject({
      acked: 1,
      lost: 0,
      probes: 0,
      probes_missing: 0,
      problem: null,
    });
  });
});
