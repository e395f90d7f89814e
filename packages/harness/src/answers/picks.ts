// The first screen's answers: each stack one could ship against the usual choice (Node's own server with node-redis, at
// its defaults), pooled and decided per machine as every answer is (answers/across-runs.ts), as one family of its own:
// the chance of any false "faster" on the first screen is at most its α. A run's family compares stacks that differ in
// one thing; a stack that differs from the usual choice in two (bun-raw-bun-redis: runtime and client) is compared
// through the stack between them, round by round: ln(A ÷ C) in a round is ln(A ÷ B) + ln(B ÷ C), B's
// windows the same in both, so B cancels. A line's pick is the candidate whose smallest ratio over the machines is
// the largest among those decided faster; the picks are not tested against each other, which the page says.
import type { KeptAnswer, KeptAnswers } from '../model/kept';
import {
  atDefault,
  type OnMachine,
  type PickLine,
  type PicksResult,
  type PoolAnswer,
  type Today,
} from '../model/across-runs';
import { type Comparison, isPlain, type Member } from '../model/questions';
import { poolAnswers } from './across-runs';
import { DECISION } from './decide';
import { mean, sampleVariance } from '../stats/stats';

/** The usual choice: Node's own HTTP server with node-redis, both at their defaults. */
export const USUAL = 'node-raw-node-redis';

/** The lines of the first screen: what a reader wants, and which stacks they would take for it. */
export const PICK_LINES: { id: string; want: string; among: (m: Member) => boolean }[] = [
  {
    id: 'fastest',
    want: "more speed, at the libraries' defaults",
    among: () => true,
  },
  { id: 'node', want: 'on Node, no change of runtime', among: (m) => m.runtime === 'node' },
  { id: 'framework', want: 'with a web framework (routes, middleware)', among: (m) => m.framework !== 'raw' },
];

/** Picks said below the table by the same rule, for a reader on another runtime: Bun's own best stack. */
export const NOTE_LINES: typeof PICK_LINES = [{ id: 'bun', want: 'on Bun', among: (m) => m.runtime === 'bun' }];

/**
 * The fewest rounds a chain of links of unequal rounds is made over. A stack raced out after its first rounds was
 * stopped on them (decided against its own server, so that link leans away from 1), and a paired t on 2–3 df weighs
 * far too much in the pool by its inverse variance, whatever its chance small spread.
 */
export const CHAIN_MIN_SHARED = 5;

/** A link of a chain: the rounds' ln ratios of one kept answer, with their round numbers where the record has them. */
interface Link {
  to: string;
  rounds: number[];
  ids?: number[];
  x: KeptAnswer;
}

/**
 * Each round's ln(a ÷ b) in one kept run, along the shortest path of its answered comparisons; null: no path, or links
 * whose rounds cannot be matched. With round numbers on every link, over the rounds every link measured (`ids`).
 */
export function chainRounds(
  k: KeptAnswers,
  a: string,
  b: string,
): { rounds: number[]; ids?: number[]; direct?: KeptAnswer } | null {
  const edges = new Map<string, Link[]>();
  const add = (from: string, link: Link) => edges.set(from, [...(edges.get(from) ?? []), link]);
  for (const x of k.answers) {
    const rs = x.estimate?.rounds;
    if (x.out || !rs?.length) continue;
    const ids = x.estimate!.round_ids?.length === rs.length ? x.estimate!.round_ids : undefined;
    add(x.a, { to: x.b, rounds: rs, ids, x });
    add(x.b, { to: x.a, rounds: rs.map((d) => -d), ids, x });
  }
  const prev = new Map<string, Link & { from: string }>();
  const queue = [a];
  for (let i = 0; i < queue.length && !prev.has(b); i++)
    for (const e of edges.get(queue[i]!) ?? [])
      if (e.to !== a && !prev.has(e.to)) {
        prev.set(e.to, { ...e, from: queue[i]! });
        queue.push(e.to);
      }
  if (!prev.has(b)) return null;
  const path: Link[] = [];
  for (let at = b; at !== a; at = prev.get(at)!.from) path.unshift(prev.get(at)!);
  if (path.length === 1) return { rounds: path[0]!.rounds, ids: path[0]!.ids, direct: path[0]!.x };
  // A fault or a raced-out stack leaves one link fewer rounds than another. With every link's round numbers, the
  // chain is each round every link measured, summed; without them, the i-th round of one link may not be the other's,
  // so it is chained only where every link has as many rounds (two faults in different rounds read as none).
  if (path.every((p) => p.ids)) {
    const at = path.map((p) => new Map(p.ids!.map((id, i) => [id, p.rounds[i]!])));
    const ids = path[0]!.ids!.filter((id) => at.every((m) => m.has(id)));
    if (path.some((p) => p.ids!.length !== ids.length) && ids.length < CHAIN_MIN_SHARED) return null;
    return { rounds: ids.map((id) => at.reduce((s, m) => s + m.get(id)!, 0)), ids };
  }
  const n = path[0]!.rounds.length;
  if (path.some((p) => p.rounds.length !== n)) return null;
  return { rounds: Array.from({ length: n }, (_, r) => path.reduce((s, p) => s + p.rounds[r]!, 0)) };
}

/** A kept answer of a ÷ b from its rounds (a paired t), or the run's own estimate where it compared them. */
function chainedAnswer(k: KeptAnswers, a: string, b: string): KeptAnswer | null {
  const got = chainRounds(k, a, b);
  if (!got) return null;
  const d = got.direct;
  if (d?.estimate) {
    const flip = d.a !== a;
    const e = d.estimate;
    return {
      a,
      b,
      ratio: Math.exp(flip ? -e.ln : e.ln),
      lo: 0,
      hi: Infinity,
      verdict: 'undecided',
      estimate: e && {
        ...e,
        ln: flip ? -e.ln : e.ln,
        rounds: got.rounds,
      },
    };
  }
  const n = got.rounds.length;
  if (n < 3) return null;
  const m = mean(got.rounds);
  const sd = Math.sqrt(sampleVariance(got.rounds));
  const estimate = {
    ln: m,
    se: sd / Math.sqrt(n),
    df: n - 1,
    procedure: 'paired-t' as const,
    rounds: got.rounds,
    ...(got.ids ? { round_ids: got.ids } : {}),
  };
  return { a, b, ratio: Math.exp(m), lo: 0, hi: Infinity, verdict: 'undecided', estimate };
}

/** The machines an answer was measured on (default placement: a placement is said apart). */
const machinesOf = (x: PoolAnswer) => x.pool.on_machines.filter(atDefault);

/** The smallest ratio over the machines, or 0 where none measured it. */
const worst = (x: PoolAnswer) => {
  const on = machinesOf(x);
  return on.length ? Math.min(...on.map((o) => o.ratio)) : 0;
};

/** Decided faster, or slower, than the usual choice on one machine. */
const isFaster = (o: OnMachine) => o.verdict === 'faster' && o.ratio > 1;
const isSlower = (o: OnMachine) => o.verdict === 'faster' && o.ratio < 1;

/** 2: decided faster on every machine measured; 1: faster on some and slower on none; 0: neither. */
const tier = (x: PoolAnswer) => {
  const on = machinesOf(x);
  const faster = on.filter(isFaster).length;
  return !faster || on.some(isSlower) ? 0 : faster === on.length ? 2 : 1;
};

/** Rank: decided faster on every machine first, then on some; within each, by the smallest ratio over machines. */
const score = (x: PoolAnswer) => tier(x) * 100 + worst(x);

/** The first screen's family: each stack at its libraries' defaults against the usual choice (none without it). */
export function picksFamily(members: Member[]): Comparison[] {
  if (!members.some((m) => m.name === USUAL)) return [];
  return members
    .filter((m) => m.name !== USUAL && isPlain(m))
    .map((m) => ({ id: `${m.name} vs ${USUAL}`, question: 'picks', a: m.name, b: USUAL }));
}

/**
 * The first screen's family, pooled: every stack at its libraries' defaults against the usual choice, in each kept
 * run, then decided per machine by poolAnswers; each line's pick.
 */
export function poolPicks(
  records: KeptAnswers[],
  members: Member[],
  today: Today | null,
  workload: string,
  marginPct: number,
  alpha: number = DECISION.alpha,
): PicksResult | null {
  const usual = members.find((m) => m.name === USUAL);
  if (!usual) return null;
  const candidates = members.filter((m) => m.name !== USUAL && isPlain(m));
  const comparisons = picksFamily(members);
  const chained = records.map((k) => ({
    ...k,
    check: undefined,
    answers: comparisons.flatMap((c) => chainedAnswer(k, c.a, c.b) ?? []),
  }));
  const pool = poolAnswers(chained, comparisons, today, workload, marginPct, alpha);
  const byName = new Map(pool.answers.map((x) => [x.a, x]));
  const everyMachine = new Set(pool.answers.flatMap((x) => machinesOf(x).map((o) => o.machine)));
  const lineOf = (l: (typeof PICK_LINES)[number]): PickLine => {
    const own = candidates.filter(l.among).flatMap((m) => byName.get(m.name) ?? []);
    const ranked = [...own].sort((x, y) => score(y) - score(x));
    const decided = !!ranked[0] && tier(ranked[0]) > 0;
    // None decided faster: the one decided slower on no machine with the highest figure on its least favourable
    // machine (as a decided pick is ranked; the default placement's machines, as tier reads them), not yet known.
    const slower = (x: PoolAnswer) => machinesOf(x).some(isSlower);
    const measured = (x: PoolAnswer) => machinesOf(x).length > 0 && Number.isFinite(x.ratio);
    const open = own.filter((x) => measured(x) && !slower(x)).sort((x, y) => worst(y) - worst(x));
    const pick = decided ? ranked[0]! : (open[0] ?? null);
    const also = ranked.slice(1).filter((x) => tier(x) === 2);
    // None shown faster, and the usual choice itself fits the line (on Node, any stack): it is the one to keep.
    const keep = !decided && !!usual && l.among(usual);
    // What keeping it gives up: nothing beyond the margin only where every candidate is measured on every machine
    // of the pool and is equal or slower on each (one not compared on a machine may be faster there).
    const noneFaster =
      own.length === candidates.filter(l.among).length &&
      own.every((x) => {
        const on = machinesOf(x);
        return on.length === everyMachine.size && on.every((o) => o.verdict === 'equal' || isSlower(o));
      });
    const { id, want } = l;
    return {
      id,
      want,
      candidates: own.length,
      pick: pick?.a ?? null,
      decided,
      keep,
      none_faster: noneFaster,
      reverses: own.filter((x) => tier(x) === 0 && slower(x) && machinesOf(x).some(isFaster)).map((x) => x.a),
      answer: pick,
      also: decided ? also.map((x) => x.a) : [],
    };
  };
  const lines = PICK_LINES.map(lineOf);
  const notes = NOTE_LINES.map(lineOf);
  const { spent, per_machine, machines, configurations } = pool;
  return { usual: USUAL, alpha, spent, per_machine, machines, configurations, lines, notes, answers: pool.answers };
}
