// The plan of the rounds, as pure functions of values (the settings, the open comparisons, the
// family, the slots): which slots are due in a round, in what order, in which blocks, and inside a
// block which members are measured side by side and in what order. Nothing here starts a process;
// tests/unit/plan.test.ts checks it, and the block around it through a fake launcher.
import { FIRST_ROUNDS } from '../answers/racing';
import { pointLabel } from '../model/load-command';
import {
  windowSeconds,
  type ContenderResult,
  type PairMode,
  type PointResult,
  type Results,
  type Settings,
} from '../model/results';
import { seededRandom, shuffled } from '../stats/stats';
import { clustered, glued, walkOrder } from './walk';

/** One contender at one load point: what a round measures once. */
export interface Slot {
  r: ContenderResult;
  point: PointResult;
}

/** How often one run is measured again (in later passes over its round) when CPU steal spoilt it. */
export const STEAL_RETRIES = 2;
/** HTTP ceilings are denominators, never ranked: one run each keeps the ceilings within 3 minutes of a default run. */
export const CEILING_RUNS = 1;
/** How a run set aside for CPU steal is marked in discarded_runs. */
export const STEAL_FAULT = 'CPU steal';

export const stolenAttempts = (p: PointResult, round: number) =>
  (p.discarded_runs ?? []).filter((d) => d.round === round && d.fault?.startsWith(STEAL_FAULT)).length;

/** This round has its run, or every attempt at it was stolen. */
export const filled = (p: PointResult, round: number) =>
  p.runs.some((x) => x.round === round) || stolenAttempts(p, round) > STEAL_RETRIES;

/**
 * The contenders racing after the first rounds: those of the open comparisons (results.open, null
 * before the first look), with the handicap checks' contenders (each handicapped one and its twin)
 * while any comparison is open. A check is the run's proof that it sees a known 10% and sizes it
 * within a few points; stopped with its plain twin's answers, it kept 3–5 rounds, too few for
 * that, and --handicap's contender keeps its launches for compare to find it by.
 */
export function openNames(results: Pick<Results, 'open' | 'handicap'>): string[] | null {
  if (!results.open) return null;
  if (!results.open.length) return [];
  const handicap = (results.handicap ?? []).flatMap((h) => [h.contender, h.compared_with ?? h.contender]);
  return [...results.open, ...handicap];
}

const samePoint = (x: Slot, y: Slot) => x.point.connections === y.point.connections && x.point.rate === y.point.rate;

/**
 * Slots due in a round; a --self-check pair stays due together, so "alone" always follows its
 * original. HTTP ceilings run in round 1 only. After the first rounds, --runs auto races: only
 * the contenders of open comparisons (`open`, from openNames; open-loop points race on the same
 * answers).
 */
export function dueSlots(
  slots: Slot[],
  round: number,
  s: Pick<Settings, 'runs' | 'max_runs'>,
  open: string[] | null,
): Slot[] {
  if (round > CEILING_RUNS) slots = slots.filter((x) => !x.r.ceiling);
  if (s.runs !== 'auto') return round <= s.runs ? slots : [];
  if (round > s.max_runs) return [];
  // Before the first look (and in runs without a family) everything counts as open.
  if (round <= FIRST_ROUNDS || !open) return slots;
  const partner = (x: Slot) =>
    slots.find((y) => samePoint(x, y) && (y.r.self_check_of === x.r.name || x.r.self_check_of === y.r.name));
  const isOpen = (x?: Slot) => !!x && open.includes(x.r.name);
  return slots.filter((x) => isOpen(x) || isOpen(partner(x)));
}

/**
 * Shuffled from the seed, phase and round, in blocks: one block per runtime, so a client or
 * framework question's contenders are measured seconds apart, and share the machine's drift
 * (measured: windows under 5 s apart differ by sd 15%, minutes apart by 22%). The blocks' order
 * and each block's inside are shuffled; --self-check twins are measured alone after the blocks.
 */
export function roundOrder(todo: Slot[], seed: number, phase: number, round: number): Slot[] {
  const random = seededRandom((seed * 31 + phase) * 1009 + round);
  const originals = todo.filter((x) => !x.r.self_check_of);
  const blocks = shuffled([...new Set(originals.map((x) => x.r.runtime))], random);
  const order = blocks.flatMap((rt) =>
    shuffled(
      originals.filter((x) => x.r.runtime === rt),
      random,
    ),
  );
  for (const twin of todo.filter((x) => x.r.self_check_of)) {
    const at = order.findIndex((x) => x.r.name === twin.r.self_check_of && samePoint(x, twin));
    order.splice(at >= 0 ? at + 1 : order.length, 0, twin);
  }
  return order;
}

/**
 * The round's blocks, --self-check twins left out. --layout walk: one block of every slot, so any
 * compared pair can be measured side by side. --layout runtime: consecutive slots of one runtime
 * (roundOrder keeps them together).
 */
export function blocksOf(order: Slot[], layout: Settings['layout']): Slot[][] {
  if (layout === 'walk') return order.some((x) => !x.r.self_check_of) ? [order.filter((x) => !x.r.self_check_of)] : [];
  const blocks: Slot[][] = [];
  for (const slot of order.filter((x) => !x.r.self_check_of)) {
    const last = blocks.at(-1);
    if (last && last[0]!.r.runtime === slot.r.runtime) last.push(slot);
    else blocks.push([slot]);
  }
  return blocks;
}

/** The comparisons a run measures: the family's (model/questions.ts) and the changes' (--against). */
type Questions = Pick<Results, 'family' | 'changes' | 'handicap'>;

const comparisonsOf = (q: Questions) => [...(q.family?.comparisons ?? []), ...(q.changes?.comparisons ?? [])];

/**
 * --layout walk: the pairs of a block's slots the walk should measure side by side (block.ts): the
 * family's comparisons, after the first rounds only those still open, and each handicap check;
 * only slots at the same load pair. Null for --layout runtime.
 */
export function walkPairs(
  block: Slot[],
  round: number,
  layout: Settings['layout'],
  q: Questions & Pick<Results, 'answers'>,
): [number, number][] | null {
  if (layout !== 'walk') return null;
  const answers = [...(q.answers ?? []), ...(q.changes?.answers ?? [])];
  const open = (id: string) =>
    round <= FIRST_ROUNDS || !q.answers || answers.some((a) => a.id === id && a.verdict === 'undecided');
  const named = [
    ...comparisonsOf(q)
      .filter((c) => open(c.id))
      .map((c) => [c.a, c.b]),
    ...(q.handicap ?? []).flatMap((h) => (h.compared_with ? [[h.contender, h.compared_with]] : [])),
  ];
  return named.flatMap(([a, b]) =>
    block.flatMap((x, i) =>
      x.r.name !== a
        ? []
        : block.flatMap((y, j) => (y.r.name === b && samePoint(x, y) ? [[i, j] as [number, number]] : [])),
    ),
  );
}

/** The members of `name` and `other` at one load point, where both are in the block, `other` first. */
export function pairsOf<T extends Slot>(members: T[], name: string, other: string | null): [T, T][] {
  return members.flatMap((m): [T, T][] => {
    const o = members.find((x) => x.r.name === other && pointLabel(x.point) === pointLabel(m.point));
    return m.r.name === name && o ? [[o, m]] : [];
  });
}

/** Each change's pair (--against, --handicap's twin) among the members: measured in duets too. */
export const changePairs = <T extends Slot>(q: Questions, members: T[]) =>
  (q.changes?.comparisons ?? []).flatMap((c) => pairsOf(members, c.a, c.b));

/** Each side-by-side comparison (of the family or the changes) whose two contenders are members of the block. */
export const twinPairs = <T extends Slot>(q: Questions, members: T[]) =>
  comparisonsOf(q)
    .filter((c) => c.side_by_side)
    .flatMap((c) => pairsOf(members, c.a, c.b));

/** Each handicap check's plain twin and handicapped app at one load point, where both are members of the block. */
export const handicapPairs = <T extends Slot>(q: Questions, members: T[]) =>
  (q.handicap ?? []).flatMap((h) => pairsOf(members, h.contender, h.compared_with));

/**
 * Under the duet design, the rounds whose launch's first cycle also measures each app alone: the
 * first rounds (where --pair auto measures both designs) and every ALONE_EVERY-th after. A launch
 * costs more than a window and varies as a whole, which only more launches average out, so the
 * other rounds measure duet windows only and a minute holds more launches. The rounds alone give
 * each side's own req/s, latency and CPU, and the bias check.
 */
export const ALONE_EVERY = 4;
export const aloneRound = (round: number) => round <= FIRST_ROUNDS || round % ALONE_EVERY === 0;

/**
 * How a change's pair is measured in cycle `j` of a round: 'alone' (each app alone, adjacent),
 * 'both' (alone, then a duet window), or 'duet' (a duet window only). Until a design is chosen
 * (--pair auto, the first rounds) every cycle measures both ways; once chosen duet, a launch's
 * first cycle measures each alone too in the rounds of `aloneRound`.
 */
export function pairMode(
  asked: 'auto' | PairMode,
  chosen: PairMode | null | undefined,
  round: number,
  j: number,
): 'alone' | 'both' | 'duet' {
  const design = asked === 'auto' ? (round <= FIRST_ROUNDS ? null : (chosen ?? null)) : asked;
  if (design === null) return 'both';
  if (design === 'alternate') return 'alone';
  return j === 0 && aloneRound(round) ? 'both' : 'duet';
}

/** The random order of a block's cycles: from the seed, round and block. */
export const blockRandom = (seed: number, round: number, blockIndex: number) =>
  seededRandom(((seed * 31 + 7) * 1009 + round) * 131 + blockIndex);

/**
 * The members' order in each of the block's `count` cycles. Without pairs: each member once, in
 * an order shuffled from `random` (blockRandom), then the members of each twin question
 * (`side_by_side` comparisons: a framework and its raw server, a setting and its default) brought
 * together, and each handicap check's two apps side by side (which goes first alternates by cycle
 * and round). With `pairs` (--layout walk, indices of compared members): a walk in which every
 * pair is measured in consecutive windows, walked forward and backward in turn (by cycle, and by
 * round when a round has one), so each side of a pair goes first equally often.
 */
export function cycles<T>(
  members: T[],
  pairs: [number, number][] | null,
  random: () => number,
  count: number,
  round: number,
  twins: [T, T][],
  checks: [T, T][],
): T[][] {
  if (!pairs)
    return Array.from({ length: count }, (_, j) =>
      glued(clustered(shuffled(members, random), [...twins, ...checks]), checks, (j + round) % 2 === 1),
    );
  const walk = walkOrder(
    members.map((_, i) => String(i)),
    pairs.map(([a, b]) => [String(a), String(b)]),
    random,
  ).map((i) => members[Number(i)]!);
  return Array.from({ length: count }, (_, j) => ((j + round) % 2 ? [...walk].reverse() : walk));
}

/**
 * Before any trial has run, a trial is guessed at its warmup, its windows (with their checks) and a second for start
 * and stop.
 */
export const firstGuessS = (s: Pick<Settings, 'warmup_s' | 'windows' | 'duration_s'>) =>
  s.warmup_s + (s.windows ?? 1) * (windowSeconds(s) + 0.3) + 1;
