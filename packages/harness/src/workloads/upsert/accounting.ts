// The upsert workload's accounting of one window: nothing lost, nothing invented. Every applied
// write increments its key's `applied` counter in the same atomic step as the write, so the
// counters summed over the window's keys must equal the responses that said created (201) or
// updated (200); each key is created once (201s = keys that exist); and no key may hold a version
// older than one the app acknowledged as applied, or said was already there when it answered ignored
// (the prober's writes, whose versions are known, checked right after each burst and at the end of
// the window: a write dropped with "ignored" while the key held an older version is lost too).
// A response that never came (5xx, a timeout) may or may not have written: it widens the bounds.
import type { UpsertWindow } from './record';

/** One of the prober's writes, as acknowledged. */
export interface Acked {
  id: string;
  /** The version the harness sent (absent in a hand-made record: the reply's is used). */
  sent?: number;
  /** NO_ANSWER: none came (a timeout, a dropped connection), so it may or may not have written. */
  status: number;
  result: string | null;
  version: number | null;
  /** The key's version read from the server once its burst was acknowledged. */
  seen?: number | null;
}

type Branches = UpsertWindow['branches'];

/** A prober's write that got no answer: counted as unanswered, which widens the bound as oha's do. */
export const NO_ANSWER = 0;

/** Responses by branch, from status codes (oha's distribution, and the prober's). */
function branchesOf(statuses: Record<string, number>, probes: Acked[], write: string): Branches {
  const b: Branches = { created: 0, updated: 0, ignored: 0, conflict: 0, pong: 0, error: 0 };
  const add = (status: number, n: number) => {
    if (status === 201) b.created += n;
    else if (status === 200 && write === 'ping') b.pong += n;
    else if (status === 200) b.updated += n;
    else if (status === 202) b.ignored += n;
    else if (status === 409) b.conflict += n;
    else b.error += n;
  };
  for (const [code, n] of Object.entries(statuses)) add(Number(code), n);
  for (const p of probes) if (p.status !== NO_ANSWER) add(p.status, 1);
  return b;
}

/** What a prober's write answered created, updated or ignored says the key held at least: the version it wrote. */
const heldAtLeast = (p: Acked): number | null =>
  p.result === 'created' || p.result === 'updated' || p.result === 'ignored' ? (p.sent ?? p.version) : null;

/**
 * The prober's acknowledged writes that were lost: once a burst was answered its key held an older
 * version than one of its writes answered created, updated or ignored (ignored says the key held
 * that version or a newer one), or at the end of the window a key holds one older than the newest
 * of those. Each write once: the window's last burst's newest write, overwritten, is seen both
 * right after its burst and at the end.
 */
function staleKeys(
  probes: Acked[],
  stored: Map<string, { applied: number; version: number }>,
): { id: string; acked: number; stored: number | null; result: string }[] {
  const said = probes.flatMap((p) => {
    const v = heldAtLeast(p);
    return v === null ? [] : [{ ...p, held: v }];
  });
  const right = said.flatMap((p) =>
    p.seen !== undefined && (p.seen ?? 0) < p.held
      ? [{ id: p.id, acked: p.held, stored: p.seen ?? null, result: p.result! }]
      : [],
  );
  const newest = new Map<string, { held: number; result: string }>();
  for (const p of said)
    if (p.held > (newest.get(p.id)?.held ?? 0)) newest.set(p.id, { held: p.held, result: p.result! });
  const atEnd = [...newest].flatMap(([id, { held, result }]) => {
    const s = stored.get(id);
    return !s || s.version < held ? [{ id, acked: held, stored: s?.version ?? null, result }] : [];
  });
  const all = [...right, ...atEnd];
  return all.filter((s, i) => all.findIndex((t) => t.id === s.id && t.acked === s.acked) === i);
}

/**
 * `statuses`: oha's status code distribution; `unanswered`: requests with no status (timeouts,
 * connection errors), and the prober's writes with NO_ANSWER too; `stored`: every key of the window's
 * space that exists, as read back.
 */
export function account(
  statuses: Record<string, number>,
  probes: Acked[],
  stored: { id: string; applied: number; version: number }[],
  write: string,
  unanswered = 0,
): Omit<UpsertWindow, 'keys' | 'prefix'> {
  const branches = branchesOf(statuses, probes, write);
  const unknown = branches.error + unanswered + probes.filter((p) => p.status === NO_ANSWER).length;
  const acked = branches.created + branches.updated;
  const applied = stored.reduce((s, k) => s + k.applied, 0);
  const byId = new Map(stored.map((k) => [k.id, k]));
  const stale = staleKeys(probes, byId);
  // An acknowledged write its key no longer holds (overwritten by an older version, or dropped as "ignored") is lost,
  // and so is one the counters are short of. A stale write may be one of those never applied, so the two are not
  // added: at least the larger of them is lost.
  const lost = Math.max(acked - applied, stale.length, 0);
  const invented = Math.max(0, applied - acked - unknown);
  const problems = [
    acked > applied &&
      `lost updates: ${acked} writes acknowledged as created or updated, ` +
        `${applied} applied (sum of applied over ${stored.length} keys): ${acked - applied} lost`,
    invented &&
      `invented writes: ${applied} applied over ${stored.length} keys, ${acked} acknowledged, ` +
        `${unknown} unanswered: ${invented} never acknowledged`,
    (branches.created > stored.length || branches.created + unknown < stored.length) &&
      `${branches.created} responses said created, but ${stored.length} keys exist`,
    stale.length &&
      `lost updates: ${stale.length} acknowledged write${stale.length > 1 ? 's' : ''} gone, ` +
        `${stale.length > 1 ? 'their keys' : 'its key'} holding an older ` +
        `version (key item:{${stale[0]!.id}} holds version ${stale[0]!.stored ?? 'none'}; ` +
        `the harness's write of version ${stale[0]!.acked} was answered "${stale[0]!.result}")`,
  ].filter(Boolean) as string[];
  return {
    branches,
    acked_applied: acked,
    applied,
    keys_written: stored.length,
    unanswered: unknown,
    lost,
    invented,
    stale: stale.length,
    problem: problems.length ? problems.join('; ') : null,
  };
}
