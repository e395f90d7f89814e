// The xadd-trim workload's accounting of one window: nothing lost, nothing invented. The stream's entries-added
// counter (XINFO STREAM) counts every entry XADD wrote, however many the cap trimmed since, so over a window it must
// equal the 201s; a request that got no answer may or may not have written, and widens the bound. The harness's own
// writes (the prober's) are each read back by their entry id as soon as they are acknowledged (one the cap trimmed
// first, newer than the stream's last entry before it was sent and older than its first one after, is counted apart,
// not lost), and the stream's length must stay within the cap.
import { sumCounts } from '../types';
import type { TrimRecord } from './record';

/** A prober's write that got no answer: counted as unanswered, which widens the bound as oha's do. */
export const NO_ANSWER = 0;

/**
 * A prober's write: its status (NO_ANSWER: none came), whether it was read back, or else trimmed by the cap before it
 * could be; `unchecked`: acknowledged, but its read-back failed, so it is neither found nor missing.
 */
export interface TrimProbe {
  status: number;
  found: boolean;
  trimmed?: boolean;
  unchecked?: true;
}

/**
 * One window's counts: oha's statuses and unanswered requests, the prober's writes (their unanswered ones count with
 * oha's), and the stream before and after.
 */
export interface TrimCounts {
  statuses: Record<string, number>;
  unanswered: number;
  probes: TrimProbe[];
  addedBefore: number;
  addedAfter: number;
  length: number;
  cap: number;
}

export function accountTrim(w: TrimCounts): Omit<TrimRecord, 'redis_commands'> {
  let acked = 0;
  let errors = 0;
  for (const [code, n] of Object.entries(w.statuses)) Number(code) === 201 ? (acked += n) : (errors += n);
  const answered = w.probes.filter((p) => p.status !== NO_ANSWER);
  for (const p of answered) p.status === 201 ? acked++ : errors++;
  const unanswered = w.unanswered + w.probes.length - answered.length;
  const unknown = errors + unanswered;
  const added = w.addedAfter - w.addedBefore;
  const lost = Math.max(0, acked - added);
  const invented = Math.max(0, added - acked - unknown);
  const acknowledged = answered.filter((p) => p.status === 201 && !p.unchecked);
  const trimmed = acknowledged.filter((p) => !p.found && p.trimmed).length;
  const missing = acknowledged.filter((p) => !p.found && !p.trimmed).length;
  const problems = [
    lost && `lost writes: ${acked} acknowledged with 201, the stream counted ${added} added: ${lost} lost`,
    invented && `invented writes: the stream counted ${added} added, ${acked} acknowledged, ${unknown} unanswered`,
    missing &&
      `lost writes: ${missing} of the harness's ${acknowledged.length} acknowledged entries not in the stream ` +
        'right after their acknowledgement',
    w.length > w.cap && `the stream holds ${w.length} entries, over its cap of ${w.cap}: not trimmed`,
  ].filter(Boolean) as string[];
  return {
    acked,
    errors,
    unanswered,
    added,
    lost,
    invented,
    probes: acknowledged.length,
    probes_missing: missing,
    probes_trimmed: trimmed,
    length: w.length,
    cap: w.cap,
    problem: problems.length ? problems.join('; ') : null,
  };
}

/** Windows (or runs) as one record: counts summed, the longest stream kept, the first problem kept. */
export function poolTrim(ws: TrimRecord[]): TrimRecord {
  const sum = (k: keyof TrimRecord) => ws.reduce((n, w) => n + (w[k] as number), 0);
  return {
    acked: sum('acked'),
    errors: sum('errors'),
    unanswered: sum('unanswered'),
    added: sum('added'),
    lost: sum('lost'),
    invented: sum('invented'),
    probes: sum('probes'),
    probes_missing: sum('probes_missing'),
    probes_trimmed: ws.reduce((n, w) => n + (w.probes_trimmed ?? 0), 0),
    length: Math.max(...ws.map((w) => w.length)),
    cap: ws[0]!.cap,
    problem: ws.find((w) => w.problem)?.problem ?? null,
    redis_commands: sumCounts(ws.map((w) => w.redis_commands ?? {})),
  };
}
