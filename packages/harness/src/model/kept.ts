// A published run's answers, kept in the repository (results/runs/<date>-<machine>-<commit>.json, a few KB each) so
// that a later run can say how its decided answers held up on other days and machines. Written from a results.json
// by the project's code (answers/held.ts keptOf), on every publish and by `npm run report -- DIR --keep`.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeJsonAtomic } from './results-file';
import type { Results, Verdict } from './results';

export interface KeptAnswers {
  started_at: string;
  /** The workload it measured: answers are looked up in kept runs of the same one. */
  workload: string;
  commit: string;
  /** "AMD EPYC, 2 logical CPUs, Linux 6.18.44": where it was measured. */
  machine: string;
  /** The run's sd between windows of a round (its noise), when it recorded one. */
  sd_windows: number | null;
  answers: { a: string; b: string; ratio: number; lo: number; hi: number; verdict: Verdict; out?: string }[];
}

/** What another run said of an answer decided here (answers/held.ts). */
export type Held = 'same' | 'equal' | 'open' | 'reversed' | 'not asked';
export const HELD: Held[] = ['same', 'equal', 'open', 'reversed', 'not asked'];

const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** The kept file's name: the date, the machine and the commit. */
export const keptName = (k: KeptAnswers) =>
  `${k.started_at.slice(0, 10)}-${slug(k.machine.split(',').slice(0, 2).join(' '))}-${k.commit.slice(0, 7)}.json`;

/** Why a run is not kept, or null: a complete run of a suite, not a part of one or a change. */
export function notKept(r: Results): string | null {
  const s = r.settings;
  if (!r.complete) return 'it is not complete';
  if (s.only || s.against || s.handicap)
    return 'it measured a part of the suite or a change (--only, --where, --against or --handicap)';
  // Its answers are of another question (writes with Redis far away), not to be held up against those at none.
  if ((s.redis_rtt_ms ?? 0) > 0) return 'it ran with Redis at a network distance (--redis-rtt)';
  return null;
}

export function writeKept(dir: string, k: KeptAnswers): string {
  const file = join(dir, keptName(k));
  writeJsonAtomic(file, k);
  return file;
}

/**
 * The kept runs in `dir` a published run's decided answers are held up against: none for a run with Redis at a network
 * distance, whose answers are of another question (and which is never kept itself: notKept).
 */
export function keptFor(r: Results, dir: string): KeptAnswers[] {
  return (r.settings.redis_rtt_ms ?? 0) > 0 ? [] : readKept(dir);
}

/** Every kept run in `dir` (none when it does not exist), oldest first. */
export function readKept(dir: string): KeptAnswers[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as KeptAnswers)
    .sort((x, y) => x.started_at.localeCompare(y.started_at));
}
