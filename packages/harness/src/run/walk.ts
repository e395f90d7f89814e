// The walk: the order of a block's measured windows when every compared pair should be measured
// side by side. Contenders are nodes and comparisons edges; a walk that traverses every edge
// measures each pair's two apps in consecutive windows, seconds apart, so the machine's bursts
// and drift (+30% for 6–10 s at a time here) fall on both sides of the ratio. Measured in a walk
// over the default suite: a compared pair's ln ratio varied by sd 17.8% between adjacent 1 s
// windows, 22.9% 5–15 windows apart and 26.3% 40 or more apart.
//
// Hierholzer's algorithm on the graph made Eulerian by a virtual node joined to every odd-degree
// node (the classic reduction of an open trail cover): the circuit, cut at the virtual node, is
// the fewest trails that cover every edge once, odd/2 per component. Trails are joined end to
// start, so a walk of E edges takes E + trails windows; nodes with no edge are measured once.
import { shuffled } from '../stats/stats';

const VIRTUAL = '\u0000';

/** Euler circuit from `start` over the (multi)graph in `adj` (consumed), by Hierholzer's algorithm. */
function circuit(adj: Map<string, { to: string; id: number }[]>, start: string, used: Set<number>): string[] {
  const stack = [start];
  const out: string[] = [];
  while (stack.length) {
    const v = stack.at(-1)!;
    const list = adj.get(v)!;
    while (list.length && used.has(list.at(-1)!.id)) list.pop();
    const next = list.pop();
    if (next) {
      used.add(next.id);
      stack.push(next.to);
    } else {
      out.push(stack.pop()!);
    }
  }
  return out.reverse();
}

/**
 * An order of `nodes` in which each edge's two ends are adjacent at least once, every node appears
 * at least once, and the trails' choices are shuffled by `random` (each round walks differently).
 */
export function walkOrder(nodes: string[], edges: [string, string][], random: () => number): string[] {
  const known = new Set(nodes);
  const es = edges.filter(([a, b]) => a !== b && known.has(a) && known.has(b));
  const adj = new Map<string, { to: string; id: number }[]>([...nodes, VIRTUAL].map((n) => [n, []]));
  es.forEach(([a, b], id) => {
    adj.get(a)!.push({ to: b, id });
    adj.get(b)!.push({ to: a, id });
  });
  let id = es.length;
  for (const n of nodes) {
    if (adj.get(n)!.length % 2) {
      adj.get(n)!.push({ to: VIRTUAL, id });
      adj.get(VIRTUAL)!.push({ to: n, id: id++ });
    }
  }
  for (const [n, list] of adj) adj.set(n, shuffled(list, random));
  const used = new Set<number>();
  const order: string[] = [];
  // The virtual node's component first (its circuit holds every open trail), then each Eulerian one.
  for (const start of [VIRTUAL, ...shuffled(nodes, random)]) {
    if (!adj.get(start)!.some((e) => !used.has(e.id))) continue;
    order.push(...circuit(adj, start, used).filter((n) => n !== VIRTUAL));
  }
  // Consecutive repeats (a trail ending where the next begins) measure one app twice in a row: drop one.
  const walk = order.filter((n, i) => n !== order[i - 1]);
  for (const n of shuffled(nodes, random)) if (!walk.includes(n)) walk.push(n);
  return walk;
}

/**
 * `order` with the second of each pair moved next to the first: after it, or before it when
 * `before`. Outside the walk, a runtime block's windows are shuffled, so the handicap check's two
 * apps were about half a block apart; side by side they share the machine's bursts. In a block of
 * those two alone (2 windows per launch, as by default), their per-round ln ratio varied
 * by sd 4.5 points, against 6–11 in the 13-app Node block.
 */
export function glued<T>(order: T[], pairs: [T, T][], before: boolean): T[] {
  let out = [...order];
  for (const [first, second] of pairs) {
    if (!out.includes(first) || !out.includes(second)) continue;
    out = out.filter((x) => x !== second);
    out.splice(out.indexOf(first) + (before ? 0 : 1), 0, second);
  }
  return out;
}

/**
 * `order` with each group of compared members brought together: the connected components of
 * `edges`, each at the place of its first member in `order`, its members in their order there but
 * the one with the most edges (a raw server and the frameworks compared with it) moved to the
 * middle, next to as many as it can be. A runtime block's windows are otherwise shuffled, so a
 * framework and its raw server were about a third of a 13-app block apart.
 */
export function clustered<T>(order: T[], edges: [T, T][]): T[] {
  const parent = new Map(order.map((x) => [x, x]));
  const root = (x: T): T => (parent.get(x) === x ? x : root(parent.get(x)!));
  const degree = new Map<T, number>();
  for (const [a, b] of edges) {
    if (!parent.has(a) || !parent.has(b) || a === b) continue;
    parent.set(root(a), root(b));
    for (const x of [a, b]) degree.set(x, (degree.get(x) ?? 0) + 1);
  }
  const groups = new Map<T, T[]>();
  for (const x of order) (groups.get(root(x)) ?? groups.set(root(x), []).get(root(x))!).push(x);
  return [...groups.values()].flatMap((g) => {
    const hub = g.reduce((best, x) => ((degree.get(x) ?? 0) > (degree.get(best) ?? 0) ? x : best));
    const rest = g.filter((x) => x !== hub);
    rest.splice(Math.floor(rest.length / 2), 0, hub);
    return rest;
  });
}
