import { describe, expect, test } from 'bun:test';
import { parseRtt } from '../../packages/harness/src/topology/delay';

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
