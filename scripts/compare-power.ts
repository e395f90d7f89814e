// How often `npm run compare` finds a known 10% change, on recorded default runs: for each pair of
// runs (A earlier, B later) and each contender of B, that contender's windows in B are slowed to
// 1/1.1 (its requests 10% longer, as --handicap asks), and compare is run. Prints, per pair of runs,
// how far apart they began, the run effect and what they flag as they are (A/A), and how often the
// slowed one was found; then per contender and in all, how often that one was flagged, how often
// another was, and the median measured change.
// Usage: bash scripts/with-tools.sh bun scripts/compare-power.ts results/<run>/ results/<run>/ …
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CompareRefused } from '../packages/harness/src/answers/agreement';
import { compare } from '../packages/harness/src/answers/compare';
import type { Results } from '../packages/harness/src/model/results';
import { summarize } from '../packages/harness/src/stats/stats';

const FACTOR = 1 / 1.1;
const dirs = process.argv.slice(2);
if (dirs.length < 2) {
  console.error('compare-power: name two or more run directories (results/<run>/), each with a results.json');
  process.exit(2);
}
function load(dir: string): Results {
  try {
    return JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'));
  } catch (e) {
    console.error(
      `compare-power: cannot read ${join(dir, 'results.json')} ` +
        `(${(e as Error).message.split('\n')[0]}); name run directories that hold one`,
    );
    process.exit(2);
  }
}
const runs = dirs.map(load);
// The handicap twin is calibrated anew in every run: its level is not the same contender's from run to run.
const tried = (r: Results) =>
  r.contenders.filter((c) => c.status === 'ok' && !c.self_check_of && c.settings?.handicap !== 'on').map((c) => c.name);

function slowed(r: Results, name: string): Results {
  const copy = structuredClone(r);
  for (const run of copy.contenders.find((c) => c.name === name)!.points[0]!.runs)
    for (const w of run.windows ?? []) w.rps *= FACTOR;
  return copy;
}

/** Run i against run j, with `name` slowed in j (none: the pair as it is). */
function compared(i: number, j: number, name?: string) {
  try {
    return compare(runs[i]!, name ? slowed(runs[j]!, name) : runs[j]!);
  } catch (e) {
    if (!(e instanceof CompareRefused)) throw e;
    console.error(`compare-power: ${dirs[i]} and ${dirs[j]}: ${e.message}`);
    process.exit(2);
  }
}

const per = new Map<string, { found: number; other: number; changes: number[] }>();
const minutesApart = (i: number, j: number) =>
  (Date.parse(runs[j]!.started_at) - Date.parse(runs[i]!.started_at)) / 60_000;
for (let i = 0; i < runs.length; i++) {
  for (let j = i + 1; j < runs.length; j++) {
    const aa = compared(i, j);
    let found = 0;
    for (const name of tried(runs[j]!)) {
      const { rows } = compared(i, j, name);
      const row = rows.find((r) => r.name === name);
      if (!row) continue;
      const e = per.get(name) ?? { found: 0, other: 0, changes: [] };
      e.found += +row.flagged;
      found += +row.flagged;
      e.other += +rows.some((r) => r.flagged && r.name !== name && tried(runs[j]!).includes(r.name));
      e.changes.push(row.change);
      per.set(name, e);
    }
    const flaggedAA = aa.rows.filter((r) => r.flagged).map((r) => r.name);
    console.log(
      `${dirs[i]} → ${dirs[j]}: ${minutesApart(i, j).toFixed(0)} min apart, run effect ` +
        `${(100 * aa.runEffect.sd).toFixed(1)}% per change, flagged half the time from ` +
        `±${(100 * summarize(aa.rows.map((r) => r.detectable)).median).toFixed(0)}% (median), A/A flagged ` +
        `${flaggedAA.length ? flaggedAA.join(', ') : 'none'}, found ${found}/${tried(runs[j]!).length}`,
    );
  }
}
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const line = (what: string, found: number, other: number, changes: number[]) =>
  `${what.padEnd(36)} found ${String(found).padStart(3)}/${changes.length} (${pct(found / changes.length)}), ` +
  `another flagged ${other}, median change ${pct(summarize(changes).median)}`;
for (const [name, e] of per) console.log(line(name, e.found, e.other, e.changes));
const all = [...per.values()];
console.log(
  line(
    `all (${FACTOR.toFixed(3)} injected: ${pct(FACTOR - 1)})`,
    all.reduce((s, e) => s + e.found, 0),
    all.reduce((s, e) => s + e.other, 0),
    all.flatMap((e) => e.changes),
  ),
);
