// CPU placement (system/placement.ts): which CPUs the app, Redis and the load generator are pinned to, by CPU count,
// worked out by hand from the rules in resolvePlacement's comment.
import { describe, expect, test } from 'bun:test';
import os from 'node:os';
import { cpuCount, pinned, resolvePlacement } from '../../packages/harness/src/system/placement';

const none = { name: 'none', app: null, redis: null, loadgen: null };

describe('CPU placement', () => {
  test('auto: disjoint from 4 CPUs up, else unpinned', () => {
    expect([1, 2, 3].map((n) => resolvePlacement('auto', n))).toEqual([none, none, none]);
    expect(resolvePlacement('auto', 4)).toEqual({ name: 'disjoint', redis: '0', loadgen: '1', app: '2-3' });
    expect(resolvePlacement('auto', 8)).toEqual({ name: 'disjoint', redis: '0', loadgen: '1-3', app: '4-7' });
    expect(resolvePlacement('none', 8)).toEqual(none);
  });

  test('split: the app alone on the last CPU, Redis and oha on the rest; disjoint below 4 CPUs is split', () => {
    expect(resolvePlacement('split', 2)).toEqual({ name: 'split', app: '1', redis: '0', loadgen: '0' });
    expect(resolvePlacement('split', 4)).toEqual({ name: 'split', app: '3', redis: '0-2', loadgen: '0-2' });
    expect(resolvePlacement('disjoint', 3)).toEqual({ name: 'split', app: '2', redis: '0-1', loadgen: '0-1' });
    expect(resolvePlacement('disjoint', 2)).toEqual({ name: 'split', app: '1', redis: '0', loadgen: '0' });
    // One CPU has nothing to split.
    expect([resolvePlacement('split', 1), resolvePlacement('disjoint', 1)]).toEqual([none, none]);
  });

  test('disjoint: Redis on CPU 0, the app on the upper half, oha on what is left; no CPU shared', () => {
    for (const n of [4, 5, 6, 7, 8, 16]) {
      const p = resolvePlacement('disjoint', n);
      const cpus = (list: string) => {
        const [a, b] = list.split('-').map(Number);
        return Array.from({ length: (b ?? a!) - a! + 1 }, (_, i) => a! + i);
      };
      const all = [p.redis!, p.loadgen!, p.app!].flatMap(cpus);
      expect(all.sort((x, y) => x - y)).toEqual(Array.from({ length: n }, (_, i) => i));
      expect(cpus(p.app!)).toHaveLength(n - Math.floor(n / 2));
    }
  });

  test('a CPU list counts its CPUs; a command is pinned with taskset only when it has one', () => {
    expect(cpuCount('3')).toBe(1);
    expect(cpuCount('0-2,5')).toBe(4);
    expect(cpuCount('1-3,5-6')).toBe(5);
    expect(cpuCount(null)).toBe(os.cpus().length);
    expect(pinned('2-3', ['node', 'x.js'])).toEqual(['taskset', '-c', '2-3', 'node', 'x.js']);
    expect(pinned(null, ['node', 'x.js'])).toEqual(['node', 'x.js']);
  });
});
