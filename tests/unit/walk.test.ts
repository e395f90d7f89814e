// The walk: every compared pair measured in adjacent windows, every contender at least once, and
// no more windows than the edges plus one per open trail.
import { describe, expect, test } from 'bun:test';
import { seededRandom } from '../../packages/harness/src/stats/stats';
import { walkOrder } from '../../packages/harness/src/run/walk';

const adjacent = (walk: string[], a: string, b: string) => walk.some((x, i) => (x === a && walk[i + 1] === b) || (x === b && walk[i + 1] === a));

describe('walkOrder', () => {
  test('random graphs: each edge adjacent, each node present, at most E + odd/2 + isolated + components windows', () => {
    const random = seededRandom(7);
    for (let g = 0; g < 300; g++) {
      const nodes = Array.from({ length: 2 + Math.floor(random() * 25) }, (_, i) => `n${i}`);
      const edges: [string, string][] = [];
      for (const [i, a] of nodes.entries()) for (const b of nodes.slice(i + 1)) if (random() < 0.2) edges.push([a, b]);
      const walk = walkOrder(nodes, edges, random);
      for (const [a, b] of edges) expect(adjacent(walk, a, b)).toBe(true);
      expect(new Set(walk)).toEqual(new Set(nodes));
      expect(walk.every((x, i) => x !== walk[i - 1])).toBe(true);
      const degree = (n: string) => edges.filter((e) => e.includes(n)).length;
      const odd = nodes.filter((n) => degree(n) % 2).length;
      const isolated = nodes.filter((n) => !degree(n)).length;
      expect(walk.length).toBeLessThanOrEqual(edges.length + odd / 2 + isolated + 1 + countComponents(nodes, edges));
    }
  });

  test('a question of three (a triangle) is one circuit of 4 windows; a lone contender is measured once', () => {
    const walk = walkOrder(['a', 'b', 'c', 'z'], [['a', 'b'], ['b', 'c'], ['a', 'c']], seededRandom(1));
    expect(walk).toHaveLength(5);
    expect(walk.filter((x) => x === 'z')).toHaveLength(1);
  });

  test('a star (a raw server and its frameworks): the hub alternates with each leaf', () => {
    const leaves = ['f1', 'f2', 'f3', 'f4'];
    const walk = walkOrder(['hub', ...leaves], leaves.map((l) => ['hub', l] as [string, string]), seededRandom(3));
    for (const l of leaves) expect(adjacent(walk, 'hub', l)).toBe(true);
    expect(walk.length).toBeLessThanOrEqual(8);
  });
});

function countComponents(nodes: string[], edges: [string, string][]): number {
  const parent = new Map(nodes.map((n) => [n, n]));
  const find = (n: string): string => (parent.get(n) === n ? n : find(parent.get(n)!));
  for (const [a, b] of edges) parent.set(find(a), find(b));
  return new Set(nodes.filter((n) => edges.some((e) => e.includes(n))).map(find)).size;
}
