// The xadd-trim accounting's edges on hand-made windows: errors widen only the invented bound, a stream holding
// exactly its cap is fine, and windows pooled into one record (counts summed, the longest stream kept).
import { describe, expect, test } from 'bun:test';
import { accountTrim, poolTrim } from '../../packages/harness/src/workloads/xadd-trim/accounting';
import { entryBefore, trimmedBetween } from '../../packages/harness/src/workloads/xadd-trim/measure';
import type { TrimRecord } from '../../packages/harness/src/workloads/xadd-trim/record';

const counts = { statuses: {}, unanswered: 0, probes: [], addedBefore: 100, length: 1000, cap: 1100 };

describe('xadd-trim accounting, one window', () => {
  test('a 500 may have written, but a 201 the stream never counted is lost all the same', () => {
    // 50 acknowledged, 2 answered 500, 48 added: the 500s cannot stand in for 2 missing 201s.
    const t = accountTrim({ ...counts, statuses: { '201': 50, '500': 2 }, addedAfter: 148 });
    expect(t).toMatchObject({ acked: 50, errors: 2, added: 48, lost: 2, invented: 0 });
    expect(t.problem).toBe('lost writes: 50 acknowledged with 201, the stream counted 48 added: 2 lost');
    // An unanswered request neither.
    expect(accountTrim({ ...counts, statuses: { '201': 50 }, unanswered: 2, addedAfter: 148 }).lost).toBe(2);
  });

  test('a stream holding exactly its cap is trimmed; one entry more is not', () => {
    const at = (length: number) => accountTrim({ ...counts, statuses: { '201': 5 }, addedAfter: 105, length });
    expect(at(1100).problem).toBeNull();
    expect(at(1101).problem).toBe('the stream holds 1101 entries, over its cap of 1100: not trimmed');
  });
});

describe('xadd-trim windows pooled', () => {
  const w = (o: Partial<TrimRecord>): TrimRecord => ({
    acked: 0,
    errors: 0,
    unanswered: 0,
    added: 0,
    lost: 0,
    invented: 0,
    probes: 0,
    probes_missing: 0,
    length: 0,
    cap: 1100,
    problem: null,
    ...o,
  });

  test('counts summed (lost and invented too), probes trimmed summed, the longest stream kept', () => {
    const ws = [
      w({ acked: 50, added: 48, lost: 2, probes: 10, probes_trimmed: 2, length: 900, problem: 'lost: 2' }),
      // An older result, with no probes_trimmed: counted as none.
      w({ acked: 30, errors: 1, added: 27, lost: 3, probes: 8, probes_missing: 1, length: 1100, problem: 'lost: 3' }),
      w({ acked: 20, unanswered: 1, added: 24, invented: 3, probes: 6, probes_trimmed: 1, length: 1000 }),
    ];
    expect(poolTrim(ws)).toEqual({
      acked: 100,
      errors: 1,
      unanswered: 1,
      added: 99,
      lost: 5,
      invented: 3,
      probes: 24,
      probes_missing: 1,
      probes_trimmed: 3,
      length: 1100,
      cap: 1100,
      problem: 'lost: 2',
      redis_commands: {},
    });
    // Whatever the order, the longest stream is kept.
    expect(poolTrim([ws[1]!, ws[2]!, ws[0]!]).length).toBe(1100);
  });
});

describe('xadd-trim accounting: statuses, invented writes, commands', () => {
  test('only a 201 acknowledges an append: a 200, from oha or the prober, is another status', () => {
    const probes = [{ status: 200, found: false, trimmed: false }];
    const t = accountTrim({ ...counts, statuses: { '201': 5, '200': 3 }, probes, addedAfter: 105 });
    expect(t).toMatchObject({ acked: 5, errors: 4, lost: 0, invented: 0, probes: 0, problem: null });
  });

  test('more added than acknowledged and unanswered: invented, said with its counts', () => {
    const t = accountTrim({ ...counts, statuses: { '201': 5 }, unanswered: 2, addedAfter: 110 });
    expect(t).toMatchObject({ invented: 3, lost: 0 });
    expect(t.problem).toBe('invented writes: the stream counted 10 added, 5 acknowledged, 2 unanswered');
  });

  test('entry ids whole: an id with anything after its numbers is none, so it comes before nothing', () => {
    expect(entryBefore('1000-5x', '2000-0')).toBe(false);
    expect(entryBefore('1000', '1000-1')).toBe(true);
    expect(trimmedBetween('1000-5x', '999-0', '2000-0')).toBe(false);
  });
});

describe('xadd-trim windows pooled: the commands', () => {
  test("the server's commands summed over the windows", () => {
    const ws = [{ xadd: 3 }, { xadd: 4, ping: 1 }].map(
      (redis_commands) => ({ ...accountTrim({ ...counts, addedAfter: 100 }), redis_commands }) as TrimRecord,
    );
    expect(poolTrim(ws).redis_commands).toEqual({ xadd: 7, ping: 1 });
  });
});
