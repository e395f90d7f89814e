// The upsert accounting on hand-made windows: a clean run, a lost update, an invented write, a
// key created twice, a stale version, and what unanswered requests allow.
import { describe, expect, test } from 'bun:test';
import { account, type Acked } from '../../packages/harness/src/workloads/upsert/accounting';
import { keySpace, upsertRequest } from '../../packages/harness/src/workloads/upsert/measure';

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
      "key item:{a} holds version 1500, the harness's write of version 2000 was acknowledged as applied",
    );
    // An ignored write promises nothing about the stored version.
    expect(
      account({ '201': 1, '200': 4 }, [probe('a', 'ignored', 2000)], [{ id: 'a', applied: 5, version: 1500 }], 'watch')
        .problem,
    ).toBeNull();
  });

  test('a burst read back right after its ack: an older version there is a lost update, even if newer came', () => {
    const burst = [2001, 2002, 2003].map((v) => ({ ...probe('p', v === 2001 ? 'created' : 'updated', v), seen: 2002 }));
    const a = account({}, burst, [{ id: 'p', applied: 3, version: 2010 }], 'watch');
    expect(a).toMatchObject({ stale: 1, lost: 1 });
    expect(a.problem).toContain(
      "key item:{p} holds version 2002, the harness's write of version 2003 was acknowledged as applied",
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
