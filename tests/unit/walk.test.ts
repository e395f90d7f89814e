// The walk: every compared pair measured in adjacent windows, every contender at least once, and
// no more windows than the edges plus one per open trail.
import { describe, expect, test } from 'bun:test';
import { seededRandom } from '../../packages/harness/src/stats/stats';
import { clustered, glued, walkOrder } from '../../packages/harness/src/run/walk';

const adjacent = (walk: string[], a: string, b: string) =>
  walk.some((x, i) => (x === a && walk[i + 1] === b) || (x === b && walk[i + 1] === a));

describe('glued: the handicap check side by side in a shuffled block', () => {
  test('the second of each pair moves next to the first, after or before it; the rest keep their order', () => {
    const order = ['a', 'twin', 'b', 'c', 'plain', 'd'];
    expect(glued(order, [['plain', 'twin']], false)).toEqual(['a', 'b', 'c', 'plain', 'twin', 'd']);
    expect(glued(order, [['plain', 'twin']], true)).toEqual(['a', 'b', 'c', 'twin', 'plain', 'd']);
    expect(glued(['twin', 'plain'], [['plain', 'twin']], false)).toEqual(['plain', 'twin']);
    expect(order).toEqual(['a', 'twin', 'b', 'c', 'plain', 'd']); // not mutated
  });

  test('a pair with a member missing from the block leaves the order as it was', () => {
    expect(glued(['a', 'twin', 'b'], [['plain', 'twin']], false)).toEqual(['a', 'twin', 'b']);
  });

  test('shuffled blocks of 2 to 14: every pair adjacent in every order, each member once', () => {
    const random = seededRandom(11);
    for (let i = 0; i < 200; i++) {
      const n = 2 + Math.floor(random() * 13);
      const members = Array.from({ length: n }, (_, k) => `m${k}`);
      const pairs: [string, string][] =
        n >= 4 && random() < 0.5
          ? [
              ['m0', 'm1'],
              ['m2', 'm3'],
            ]
          : [['m0', 'm1']];
      const order = glued(
        [...members].sort(() => random() - 0.5),
        pairs,
        random() < 0.5,
      );
      expect([...order].sort()).toEqual([...members].sort());
      for (const [a, b] of pairs) expect(adjacent(order, a, b)).toBe(true);
    }
  });
});

describe("clustered: a runtime block's twin questions side by side", () => {
  test("each group at its first member's place, the one with most edges in its middle, the rest in order", () => {
    // raw is compared with express, fastify and next; ioredis and glide with nothing here.
    const order = ['express', 'ioredis', 'next', 'raw', 'glide', 'fastify'];
    const edges: [string, string][] = [
      ['express', 'raw'],
      ['fastify', 'raw'],
      ['next', 'raw'],
    ];
    expect(clustered(order, edges)).toEqual(['express', 'raw', 'next', 'fastify', 'ioredis', 'glide']);
    expect(clustered(['b', 'a'], [['a', 'b']])).toEqual(['b', 'a']);
    expect(clustered(order, [])).toEqual(order);
    expect(order).toEqual(['express', 'ioredis', 'next', 'raw', 'glide', 'fastify']); // not mutated
  });

  test('shuffled blocks: each member once, every group contiguous, a hub next to its first two partners', () => {
    const random = seededRandom(12);
    for (let i = 0; i < 200; i++) {
      const n = 4 + Math.floor(random() * 11);
      const members = Array.from({ length: n }, (_, k) => `m${k}`);
      // m0 a hub with up to 3 partners, m1–m2 a pair of their own when there is room.
      const partners = members.slice(3, 3 + 1 + Math.floor(random() * 3));
      const edges: [string, string][] = [...partners.map((p): [string, string] => ['m0', p]), ['m1', 'm2']];
      const order = clustered(
        [...members].sort(() => random() - 0.5),
        edges,
      );
      expect([...order].sort()).toEqual([...members].sort());
      const places = ['m0', ...partners].map((x) => order.indexOf(x)).sort((a, b) => a - b);
      expect(places.at(-1)! - places[0]!).toBe(partners.length);
      expect(adjacent(order, 'm1', 'm2')).toBe(true);
      expect(partners.filter((p) => adjacent(order, 'm0', p)).length).toBe(Math.min(2, partners.length));
    }
  });
});

describe('walkOrder', () => {
  test('random graphs: each edge adjacent, each node present, ≤ E + odd/2 + isolated + components windows', () => {
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
    const walk = walkOrder(
      ['a', 'b', 'c', 'z'],
      [
        ['a', 'b'],
        ['b', 'c'],
        ['a', 'c'],
      ],
      seededRandom(1),
    );
    expect(walk).toHaveLength(5);
    expect(walk.filter((x) => x === 'z')).toHaveLength(1);
  });

  test('a star (a raw server and its frameworks): the hub alternates with each leaf', () => {
    const leaves = ['f1', 'f2', 'f3', 'f4'];
    const walk = walkOrder(
      ['hub', ...leaves],
      leaves.map((l) => ['hub', l] as [string, string]),
      seededRandom(3),
    );
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
