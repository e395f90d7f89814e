import { describe, expect, test } from 'bun:test';
import { parseRtt, rttOf } from '../../packages/harness/src/topology/delay';

describe('parseRtt', () => {
  test('reads 0, microseconds and milliseconds, in order, as milliseconds', () => {
    expect(parseRtt('0,0.2ms,1ms,5ms')).toEqual([0, 0.2, 1, 5]);
    expect(parseRtt('200us')).toEqual([0.2]);
    expect(parseRtt('50us, 2.5ms')).toEqual([0.05, 2.5]);
    expect(parseRtt('0ms')).toEqual([0]);
  });

  test('rejects anything else, saying what is accepted', () => {
    for (const bad of ['', '1', '0.2', '1s', '-1ms', '1 ms', 'ms', '1ms,', '1e3us', '0x10ms', '70000ms', 'fast']) {
      expect(() => parseRtt(bad)).toThrow(
        /expected a comma-separated list of round-trip times: 0, or a number with us or ms/,
      );
    }
  });

  test('rejects the same RTT twice, however it is written', () => {
    expect(() => parseRtt('0.2ms,200us')).toThrow('listed twice');
  });
});

describe('rttOf', () => {
  const w = (min: number, max: number, avg: number, count: number) => ({ min, max, avg, count });

  test("the typical RTT is the median of the windows' means, so one stalled window does not move it", () => {
    // Three windows: one with a scheduling stall (mean 4 ms); the median keeps the other two's level.
    const r = rttOf([w(0, 1, 0.21, 400), w(0, 30, 4, 100), w(0, 1, 0.25, 400)]);
    expect(r.typical_ms).toBe(0.25);
    // Every PING weighs the same in the mean: (0.21·400 + 4·100 + 0.25·400) / 900.
    expect(r.avg_ms).toBe(0.649);
    expect([r.min_ms, r.max_ms, r.samples, r.windows]).toEqual([0, 30, 900, 3]);
    // An even number of windows: the mean of the middle two.
    expect(rttOf([w(1, 2, 1.1, 10), w(1, 3, 1.3, 10), w(1, 9, 5, 10), w(0, 2, 0.9, 10)]).typical_ms).toBe(1.2);
  });
});
