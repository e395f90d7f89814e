// The xadd-trim accounting's edges on hand-made windows: errors widen only the invented bound, a stream holding
// exactly its cap is fine, and windows pooled into one record (counts summed, the longest stream kept).
import { describe, expect, test } from 'bun:test';
import { accountTrim, poolTrim } from '../../packages/harness/src/workloads/xadd-trim/accounting';
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
