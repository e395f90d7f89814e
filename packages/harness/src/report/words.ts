// The words of the README and the reports, each linked to its entry in docs/glossary.md, and the line that names
// a run on every chart.
import type { Results } from '../model/results';
import type { PoolResult } from '../model/across-runs';
import { workloadOfRun } from '../workloads';

/** The glossary, from the checkout's root. */
export const GLOSSARY = 'docs/glossary.md';
/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
export const anchorOf = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^a-z0-9 -]/g, '')
    .replace(/ /g, '-');
/** How much faster: a factor from 1.5× on ("2.1×"), a percentage below ("8%"); one switch for the whole page. */
export const asFactor = (f: number) => f >= 1.5;

/** "a, b and c". */
export const listed = (xs: string[]) =>
  xs.length > 1 ? `${xs.slice(0, -1).join(', ')} and ${xs.at(-1)}` : (xs[0] ?? '');

/**
 * A pooled answer decided on some machines and not on others ("depends on the machine", "reverses"): its words at
 * the default placement ("faster on Intel Xeon, open on AMD EPYC"), said of `from` (a ÷ b's words, turned round
 * when `from` is b); null for an answer that holds on every machine measured, or is open on every one, or was not
 * pooled.
 */
export function onSomeMachines(
  a: { a: string; pool?: { holds: string; where: string } },
  from: string = a.a,
): string | null {
  if (!a.pool || (a.pool.holds !== 'depends on the machine' && a.pool.holds !== 'reverses')) return null;
  // The machines' words; a placement's, said after them, stays in results.md's full answer.
  const words = a.pool.where.split('; with --placement')[0]!;
  if (from === a.a) return words;
  return words.replace(/\b(faster|slower)\b/g, (w) => (w === 'faster' ? 'slower' : 'faster'));
}

/** A word linked to its glossary entry. */
export const term = (word: string, heading = word) => `[${word}](${GLOSSARY}#${anchorOf(heading)})`;

/** Where Redis was, as a chart says it: on the machine with oha and the app, or at a distance. */
function placeText(r: Results): string {
  const rtt = r.settings.redis_rtt_ms;
  return rtt ? `Redis ${rtt} ms away (a delay proxy)` : 'Redis, oha and the app on one machine';
}

/** Where the run's Redis was, and how it was read: "Redis on 127.0.0.1, no TLS". */
export function redisPlace(r: Results): string {
  const s = r.settings;
  const url = r.data?.redis_url;
  const where = s.redis_rtt_ms
    ? `Redis ${s.redis_rtt_ms} ms away (a delay proxy)`
    : url
      ? 'a Redis of your own (REDIS_URL)'
      : 'Redis on 127.0.0.1';
  return `${where}, ${s.redis_tls || url?.startsWith('rediss:') ? 'over TLS' : 'no TLS'}`;
}

/** Every chart's subtitle: the run (date, commit), the workload, where Redis was, the machine and the load. */
export function runSubtitle(r: Results): string {
  // Read as far as it goes: a hand-made or older results.json may lack a part.
  const s = r.settings;
  const e = r.environment;
  const load = workloadOfRun(s).load(r, false);
  return [
    `run of ${r.started_at?.slice(0, 10)}${e ? ` (${e.git_commit.slice(0, 7)})` : ''}`,
    load,
    s.redis_tls && 'Redis over TLS (--redis-tls)',
    placeText(r),
    e && `${e.cpu_model}, ${e.logical_cpus} CPUs`,
    s.connections && `c=${s.connections[0]}`,
  ]
    .filter(Boolean)
    .join(' · ');
}

/** The names the glossary has an entry for, each with its entry's heading. */
const NAMES: Record<string, string> = {
  ...Object.fromEntries(
    ['node-redis', 'ioredis', 'iovalkey', 'bun-redis', 'glide', 'fastify', 'express', 'hono', 'elysia', 'stric'].map(
      (n) => [n, n],
    ),
  ),
  'next page-dynamic': 'next page-dynamic',
  'next route-dynamic': 'next page-dynamic',
};

/** A linker for one text: each name the glossary has is linked at its first use, and plain after it. */
export function firstUse(): (name: string) => string {
  const seen = new Set<string>();
  return (name) => {
    const heading = NAMES[name];
    if (!heading || seen.has(name)) return name;
    seen.add(name);
    return term(name, heading);
  };
}

/** What gives a run more rounds, said where too few of them left an answer open. */
export const MORE = 'a longer `--budget`, or more `--runs`, buys rounds';

/** An interval's level: "95.5%", or for a strict level "1 − 2.7e-6", so that no level reads as 100%. */
export const levelText = (level: number) => {
  const miss = 1 - level;
  if (miss < 0.001) return `1 − ${miss.toExponential(1)}`;
  return `${(level * 100).toFixed(miss < 0.01 ? 2 : 1)}%`;
};

/** "95% CI" when the interval covers at least the asked level; its real level ("93.8% CI") when n is too small. */
export const levelLabel = (level: number, asked = 0.95) => `${+(Math.min(level, asked) * 100).toFixed(1)}% CI`;

/** The runs a pool counted: how many, and the span of their days ("FIRST to LAST", or the one day). */
export function pooledDays(runs: { pooled: number; started_at: string }[]): { count: number; span: string } {
  const days = runs
    .filter((r) => r.pooled)
    .map((r) => r.started_at.slice(0, 10))
    .sort();
  return { count: days.length, span: days[0] === days.at(-1) ? days[0]! : `${days[0]} to ${days.at(-1)}` };
}

/**
 * ", 2 of them contended" after a configuration's boots ("contended" alone for its one boot, "all contended" for every
 * one): how many had a contended run (model/kept.ts conditionOf); `linked`: the word linked to the glossary (the
 * README's first screen, whose links are from the checkout's root).
 */
export function contendedOf(x: PoolResult['priors'][number], linked = false): string {
  const n = x.contended_boots;
  if (!n) return '';
  const word = linked ? term('contended') : 'contended';
  return `, ${n < x.boots ? `${n} of them ${word}` : x.boots === 1 ? word : `all ${word}`}`;
}
