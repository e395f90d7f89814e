// Judges what an app served while a writer appended to its stream. Pure functions: the
// writer's log (the sequence) and the prober's records come in, verdicts come out.
//
// The model. The writer XADDs with an exact `MAXLEN m`, which appends and trims in one atomic
// step, so the stream only ever holds "the last min(m, j+1) entries of the sequence, ending at
// some index j" (or, before the first write, the initial entries as they were). A correct
// app, cached or not, must serve exactly one of those snapshots; the only question is how old.
import { max, quantile } from 'simple-statistics';
import { toJson } from '@bench/stream';
import type { Failure, LiveSummary as Summary } from './record';

export interface Entry {
  id: string;
  fields: Record<string, string>;
}

/**
 * An entry with the time the writer saw Redis acknowledge it (initial entries: -Infinity).
 * sent_ms, when known, is when it was sent: Redis may show it to readers from then on.
 */
export interface SequencedEntry extends Entry {
  acked_ms: number;
  sent_ms?: number;
}

/** One GET by the prober: when it left, when the answer came, and what it was. */
export type { Probe } from '../../measure/probe';
import type { Probe } from '../../measure/probe';

export type ProbeResult =
  | { ok: true; sent_ms: number; last_index: number; staleness_ms: number }
  | { ok: false; sent_ms: number; kind: Failure; reason: string };

/** The contract body for these entries, byte-identical to what a correct app sends (same code path). */
export function canonicalBody(entries: readonly Entry[]): string {
  return toJson({ shape: 'object', entries: entries.map((e) => ({ id: e.id, message: e.fields })) });
}

/** The writer's log as a sequence: initial entries were there "forever", so acked at -Infinity. */
export function sequenceOf(log: {
  initial: Entry[];
  written: (Entry & { sent_ms: number; acked_ms: number })[];
}): SequencedEntry[] {
  return [
    ...log.initial.map((e) => ({ id: e.id, fields: e.fields, acked_ms: -Infinity })),
    ...log.written.map((e) => ({ id: e.id, fields: e.fields, sent_ms: e.sent_ms, acked_ms: e.acked_ms })),
  ];
}

/**
 * The sequence with what judging needs (ids' places, byte sizes), built once and extended as the
 * writer's log grows: a window then costs its probes and the entries new since the last one, not
 * every write of the run again (at 10,000 writes/s that was millions per window).
 */
export class Timeline {
  readonly seq: SequencedEntry[] = [];
  readonly index = new Map<string, number>();
  /** prefix[j]: the bytes entries 0..j−1 add to a canonical body (each its own, plus a comma after the first). */
  readonly prefix: number[] = [0];
  /** How many leading entries are initial (acked at -Infinity): before the first write the stream held all of them. */
  initial = 0;

  static of(seq: readonly SequencedEntry[]): Timeline {
    return new Timeline().add(seq);
  }

  add(entries: readonly SequencedEntry[]): this {
    const empty = canonicalBody([]).length;
    for (const e of entries) {
      if (e.acked_ms === -Infinity && this.initial === this.seq.length) this.initial++;
      this.index.set(e.id, this.seq.length);
      this.seq.push(e);
      this.prefix.push(this.prefix[this.prefix.length - 1]! + Buffer.byteLength(canonicalBody([e])) - empty);
    }
    return this;
  }

  /**
   * Last index whose entry passes `test`, which holds up to some index and not after (the times never decrease), or -1.
   */
  lastIndex(test: (e: SequencedEntry) => boolean): number {
    let [lo, hi] = [-1, this.seq.length - 1];
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (test(this.seq[mid]!)) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
}

const timelineOf = (seq: Timeline | readonly SequencedEntry[]) => (seq instanceof Timeline ? seq : Timeline.of(seq));

/**
 * First index of the snapshot ending at j. The first write trims to maxlen, but until then the
 * stream held every initial entry, even if there were more than maxlen.
 */
function windowStart(j: number, initial: number, maxlen: number): number {
  return j < initial ? 0 : Math.max(0, j + 1 - maxlen);
}

/** Snapshots that ever existed end at the last initial entry or at a written one. */
const isSnapshotEnd = (j: number, initial: number) => j >= initial - 1;

/** Precomputed per sequence, shared by every probe. */
interface Context {
  seq: readonly SequencedEntry[];
  maxlen: number;
  initial: number;
  index: Map<string, number>;
}

function contextOf(t: Timeline, maxlen: number): Context {
  return { seq: t.seq, maxlen, initial: t.initial, index: t.index };
}

/** The canonical shape, checked loosely enough to name what is wrong. */
function shapeProblem(body: unknown): string | null {
  const entries = (body as { entries?: unknown } | null)?.entries;
  if (!Array.isArray(entries)) return 'no "entries" array';
  for (let k = 0; k < entries.length; k++) {
    const e = entries[k] as { id?: unknown; fields?: unknown } | null;
    if (typeof e?.id !== 'string') return `entry ${k} has no string "id"`;
    if (typeof e.fields !== 'object' || e.fields === null || Array.isArray(e.fields))
      return `entry ${k} (${e.id}) has no "fields" object`;
    if (Object.values(e.fields).some((v) => typeof v !== 'string'))
      return `entry ${k} (${e.id}) has a non-string field value`;
  }
  return null;
}

/** Judge one probe: which snapshot it shows, or why it shows none. */
function judgeProbe(probe: Probe, ctx: Context): ProbeResult {
  const fail = (kind: Failure, reason: string): ProbeResult => ({ ok: false, sent_ms: probe.sent_ms, kind, reason });
  if (probe.status !== 200) return fail('status', `HTTP ${probe.status}`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(probe.body);
  } catch (e) {
    return fail('not-json', `${(e as Error).message}; body starts ${JSON.stringify(probe.body.slice(0, 60))}`);
  }
  const problem = shapeProblem(parsed);
  if (problem) return fail('shape', problem);
  const got = (parsed as { entries: Entry[] }).entries;
  const where = got.map((e) => ctx.index.get(e.id));
  const unknown = where.indexOf(undefined);
  if (unknown >= 0) return fail('unknown-id', `entry ${unknown} has id ${got[unknown]!.id}, never written`);
  const verdict = placeWindow(where as number[], got, ctx);
  if (verdict) return fail(verdict.kind, verdict.reason);
  const j = got.length ? where[got.length - 1]! : ctx.initial - 1;
  const expected = canonicalBody(ctx.seq.slice(windowStart(j, ctx.initial, ctx.maxlen), j + 1));
  if (probe.body !== expected)
    return fail(
      'shape',
      `same entries, but not the canonical bytes (differs at character ${firstDifference(probe.body, expected)})`,
    );
  return { ok: true, sent_ms: probe.sent_ms, last_index: j, staleness_ms: staleness(j, probe.sent_ms, ctx.seq) };
}

/**
 * Is the list of sequence indices one snapshot? The body's last id names the moment j it
 * claims to show; anything else is classified by how it departs from that snapshot.
 */
function placeWindow(where: number[], got: Entry[], ctx: Context): { kind: Failure; reason: string } | null {
  if (where.length === 0) {
    // An empty stream existed only if the writer started from one.
    return ctx.initial === 0 ? null : { kind: 'torn', reason: 'empty body, but the stream was never empty' };
  }
  // A repeated id means two reads were spliced together: entries from two moments.
  const seen = new Set<number>();
  for (let k = 0; k < where.length; k++) {
    if (seen.has(where[k]!)) return { kind: 'torn', reason: `id ${got[k]!.id} appears twice` };
    seen.add(where[k]!);
  }
  for (let k = 1; k < where.length; k++) {
    if (where[k]! < where[k - 1]!)
      return {
        kind: 'reordered',
        reason: `entry ${k} (${got[k]!.id}) comes after ${got[k - 1]!.id}, which was written later`,
      };
  }
  const j = where[where.length - 1]!;
  if (!isSnapshotEnd(j, ctx.initial))
    return { kind: 'torn', reason: `ends at ${got[where.length - 1]!.id}, but the stream never ended there` };
  const start = windowStart(j, ctx.initial, ctx.maxlen);
  if (where.length !== j + 1 - start)
    return {
      kind: 'torn',
      reason: `${where.length} entries, but the stream ending at ${got[where.length - 1]!.id} held ${j + 1 - start}`,
    };
  // Right length and order can still hide a gap: an old head joined to a new tail.
  for (let k = 0; k < where.length; k++) {
    if (where[k] !== start + k)
      return {
        kind: 'torn',
        reason:
          `entry ${k} is ${got[k]!.id}, but the stream ending at ` +
          `${got[where.length - 1]!.id} had ${ctx.seq[start + k]!.id} there`,
      };
  }
  for (let k = 0; k < where.length; k++) {
    const diff = fieldsDiffer(got[k]!.fields, ctx.seq[start + k]!.fields);
    if (diff) return { kind: 'fields', reason: `entry ${k} (${got[k]!.id}): ${diff}` };
  }
  return null;
}

/** Fields must match in values and in order (the contract keeps stream order). */
function fieldsDiffer(got: Record<string, string>, want: Record<string, string>): string | null {
  const g = Object.entries(got);
  const w = Object.entries(want);
  for (let k = 0; k < Math.max(g.length, w.length); k++) {
    const [gf, gv] = g[k] ?? [];
    const [wf, wv] = w[k] ?? [];
    if (gf !== wf || gv !== wv)
      return (
        `field ${k} is ${gf === undefined ? 'missing' : `${gf}=${gv}`}, ` +
        `written ${wf === undefined ? 'nothing' : `${wf}=${wv}`}`
      );
  }
  return null;
}

function firstDifference(a: string, b: string): number {
  let k = 0;
  while (k < a.length && k < b.length && a[k] === b[k]) k++;
  return k;
}

/**
 * How much older the snapshot ending at j is than the request: the oldest entry the body lacks
 * (j+1) counts only if it was acknowledged by the time the request left, and then by how long.
 * Ack times come from the writer, so an entry Redis already held but had not yet acknowledged
 * is never held against the app: the measure can only err towards "fresher".
 */
function staleness(j: number, sent_ms: number, seq: readonly SequencedEntry[]): number {
  const missing = seq[j + 1];
  return missing && missing.acked_ms <= sent_ms ? sent_ms - missing.acked_ms : 0;
}

/**
 * Judge every probe against the sequence. boundMs is the staleness the app declared: an exact
 * cache --max-staleness (default 50 ms, for the invalidation's trip), a TTL cache its TTL plus that.
 */
export function judge(
  probes: readonly Probe[],
  seq: Timeline | readonly SequencedEntry[],
  maxlen: number,
  boundMs: number,
): { results: ProbeResult[]; summary: Summary } {
  const ctx = contextOf(timelineOf(seq), maxlen);
  const results = probes.map((p) => judgeProbe(p, ctx));
  return { results, summary: summarize(results, boundMs) };
}

function summarize(results: readonly ProbeResult[], boundMs: number): Summary {
  // "First" by send time: the prober's records may arrive in completion order.
  const byTime = [...results].sort((a, b) => a.sent_ms - b.sent_ms);
  const invalid: Partial<Record<Failure, number>> = {};
  const ages: number[] = [];
  let first_invalid: Summary['first_invalid'] = null;
  let first_over_bound: Summary['first_over_bound'] = null;
  let over_bound = 0;
  for (const r of byTime) {
    if (!r.ok) {
      invalid[r.kind] = (invalid[r.kind] ?? 0) + 1;
      first_invalid ??= { sent_ms: r.sent_ms, kind: r.kind, reason: r.reason };
      continue;
    }
    ages.push(r.staleness_ms);
    if (r.staleness_ms > boundMs) {
      over_bound++;
      first_over_bound ??= { sent_ms: r.sent_ms, staleness_ms: r.staleness_ms };
    }
  }
  const staleness_ms = ages.length ? { p50: quantile(ages, 0.5), p99: quantile(ages, 0.99), max: max(ages) } : null;
  return {
    count: results.length,
    valid: ages.length,
    invalid,
    first_invalid,
    staleness_ms,
    bound_ms: boundMs,
    over_bound,
    first_over_bound,
  };
}

/**
 * The shortest and longest canonical body (UTF-8 bytes) among the snapshots that existed at any
 * time in [from_ms, to_ms]: the one current at from_ms (last acked by then) up to the last entry
 * Redis may have shown by to_ms (sent by then, when the send time is known; else acked).
 */
export function snapshotLengths(
  seq: Timeline | readonly SequencedEntry[],
  maxlen: number,
  from_ms: number,
  to_ms: number,
): { min: number; max: number } {
  const t = timelineOf(seq);
  const { initial, prefix } = t;
  const empty = canonicalBody([]).length;
  // Each entry adds its own bytes plus a comma after the first: the prefix sums make every snapshot O(1).
  const bytes = (start: number, j: number) =>
    j < start ? empty : empty + prefix[j + 1]! - prefix[start]! + (j - start);
  let first = Math.max(
    initial - 1,
    t.lastIndex((e) => e.acked_ms <= from_ms),
  );
  const last = Math.max(
    first,
    t.lastIndex((e) => (e.sent_ms ?? e.acked_ms) <= to_ms),
  );
  let min = Infinity;
  let max = -Infinity;
  for (; first <= last; first++) {
    const n = bytes(windowStart(first, initial, maxlen), first);
    min = Math.min(min, n);
    max = Math.max(max, n);
  }
  return { min, max };
}
