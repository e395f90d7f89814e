// The live workload's verdict on a window (liveFault: each fault as its sentence, sizes outside every snapshot's
// either way) and a launch's windows pooled into one record (poolLive: counts summed, the earliest faults kept).
import { describe, expect, test } from 'bun:test';
import type { LiveRecord } from '../../packages/harness/src/workloads/live/record';
import { liveFault, poolLive } from '../../packages/harness/src/workloads/live/session';

const window = (o: Partial<LiveRecord> = {}): LiveRecord => ({
  count: 100,
  valid: 100,
  invalid: {},
  first_invalid: null,
  staleness_ms: { p50: 2, p99: 20, max: 30 },
  bound_ms: 50,
  over_bound: 0,
  first_over_bound: null,
  bytes_min: 1000,
  bytes_max: 2000,
  writer_alive: true,
  writes: 500,
  write_redis_us: 4000,
  ...o,
});

describe('liveFault', () => {
  test('a clean window, responses averaging any size a snapshot had: no fault', () => {
    for (const mean of [null, 1000, 1500, 2000]) expect(liveFault(window(), mean)).toBeNull();
  });

  test('responses averaging more than the largest snapshot, or less than the smallest: a fault naming the size', () => {
    expect(liveFault(window(), 2000.5)).toBe(
      "responses under load averaged 2000.5 bytes, outside every snapshot's size (1000–2000)",
    );
    expect(liveFault(window(), 999.5)).toBe(
      "responses under load averaged 999.5 bytes, outside every snapshot's size (1000–2000)",
    );
  });

  test('a writer that died, or a window with no probe: a fault, whatever else it holds', () => {
    expect(liveFault(window({ writer_alive: false }), 1500)).toBe(
      'the live writer died during the window, so what the app served cannot be judged',
    );
    expect(liveFault(window({ count: 0, valid: 0 }), 1500)).toBe(
      'no probe was sent during the window, so what the app served cannot be judged',
    );
    // Pooled: one window whose writer died is the launch's.
    expect(poolLive([window(), window({ writer_alive: false })]).writer_alive).toBe(false);
  });

  test('a single read over its bound is a fault, with its staleness and how many there were', () => {
    const w = window({ over_bound: 1, first_over_bound: { sent_ms: 1234, staleness_ms: 80.4 } });
    expect(liveFault(w, null)).toBe('served a read 80 ms stale, over its 50 ms bound (1 such of 100 probes)');
    // Named before a size outside every snapshot's.
    expect(liveFault(w, 5000)).toBe('served a read 80 ms stale, over its 50 ms bound (1 such of 100 probes)');
  });
});

describe('poolLive', () => {
  // Two windows of a launch: each over its bound now and then, the second's first stale read sent earlier than the
  // first's (the windows' order is not the reads' order).
  const late = window({
    over_bound: 3,
    first_over_bound: { sent_ms: 5000, staleness_ms: 90 },
    invalid: { torn: 1 },
    valid: 99,
    first_invalid: { sent_ms: 5100, kind: 'torn', reason: 'id 1-0 appears twice' },
    staleness_ms: { p50: 4, p99: 60, max: 90 },
    bytes_min: 1100,
    bytes_max: 1900,
  });
  const early = window({
    over_bound: 4,
    first_over_bound: { sent_ms: 2000, staleness_ms: 70 },
    invalid: { torn: 2, status: 1 },
    valid: 97,
    first_invalid: { sent_ms: 2100, kind: 'status', reason: 'HTTP 503' },
    staleness_ms: { p50: 2, p99: 70, max: 75 },
    bytes_min: 1000,
    bytes_max: 2000,
  });

  test('over_bound summed over the windows, the earliest stale read and invalid read kept, by their send time', () => {
    for (const ws of [
      [late, early],
      [early, late],
    ]) {
      const p = poolLive(ws);
      expect(p).toMatchObject({
        count: 200,
        valid: 196,
        invalid: { torn: 3, status: 1 },
        over_bound: 7,
        first_over_bound: { sent_ms: 2000, staleness_ms: 70 },
        first_invalid: { sent_ms: 2100, kind: 'status' },
        bytes_min: 1000,
        bytes_max: 2000,
        writer_alive: true,
        writes: 1000,
        write_redis_us: 8000,
      });
      expect(p.staleness_ms).toEqual({ p50: 3, p99: 70, max: 90 });
      // The pooled record's fault names the earliest stale read, and every one over the bound.
      const clean = { ...p, invalid: {}, first_invalid: null };
      expect(liveFault(clean, null)).toBe('served a read 70 ms stale, over its 50 ms bound (7 such of 200 probes)');
    }
  });

  test("the writer's CPU and follower reads summed where every window has them, else left out", () => {
    const measured = { ...early, writer_cpu_s: 1.5, follower_reads: 40 };
    expect(poolLive([measured, { ...late, writer_cpu_s: 2, follower_reads: 10 }])).toMatchObject({
      writer_cpu_s: 3.5,
      follower_reads: 50,
    });
    // A window of an older record without them: the first window's figures are not the launch's.
    const pooled = poolLive([measured, late]);
    expect(['writer_cpu_s' in pooled, 'follower_reads' in pooled]).toEqual([false, false]);
  });
});
