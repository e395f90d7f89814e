// What the pool's run effect is drawn from, on kept records (results/runs/*.json) of one machine and the same inputs:
//   1. the τ between each pair of runs (stats/run-effect.ts, over the comparisons both measured), same boot or not,
//      and each run quiet or contended (model/kept.ts conditionOf), summed up by kind of pair, and for pairs on two
//      boots by kind of question (client, runtime, framework, setting);
//   2. seeded null families at a spread like the one measured (3 of 16 contenders moving 12% between boots, the rest
//      1.5%, 1% between runs of one boot): how often a design makes any false "faster", each run a draw of one τr
//      per machine (the pool before 2026-12-04) against a boot's runs merged, at a stated prior of 3% or 6%;
//   3. the records' pooled means taken as the truth, boots drawn at that spread (glide, iovalkey and Next.js
//      contenders 9%, the rest 1%): how many of the comparisons the pool answers, by the boots measured.
//   4. the records pooled by the pool's own rules (the newest one's inputs as today's, or any with --any-inputs), all
//      conditions together and each condition apart, at the stated prior on τr and smaller ones: what answering per
//      condition would give from these runs; and with τr learnt also from the runs of other inputs.
//   5. with --steal RESULTS.json (a contended run's results.json): its rounds left out above a CPU steal limit, then
//      the τ and median difference between it and each quiet record: whether a stricter --max-steal brings a
//      contended run nearer a quiet boot.
// Usage: bash scripts/with-tools.sh bun scripts/pool-boots.ts [--any-inputs] [--steal R.json] results/runs/A.json …
// (--any-inputs: parts 1 and 4 take runs whatever their inputs, to read τ across inputs versions too.)
// (docs/runs/pool.md, 2026-12-04, has its output on the four kept runs of that day's inputs.)
import { readFileSync } from 'node:fs';
import { median } from 'simple-statistics';
import { defaultPlacementOf, poolAnswers } from '../packages/harness/src/answers/across-runs';
import { analyze } from '../packages/harness/src/answers/analysis';
import { recordOf } from '../packages/harness/src/publish/kept-runs';
import type { Results } from '../packages/harness/src/model/results';
import { decidedLevels } from '../packages/harness/src/answers/decide';
import { bootsOf, conditionOf, type KeptAnswers, placementOf } from '../packages/harness/src/model/kept';
import {
  fitAt,
  halfNormalOnGrid,
  type PoolPrior,
  poolRuns,
  type RunEstimate,
  TAU_GRID,
} from '../packages/harness/src/stats/meta-analysis';
import { runEffectVariance } from '../packages/harness/src/stats/run-effect';
import { seededRandom } from '../packages/harness/src/stats/stats';

const anyInputs = process.argv.includes('--any-inputs');
const stealAt = process.argv.indexOf('--steal');
const stealFile = stealAt > 0 ? process.argv[stealAt + 1] : undefined;
const files = process.argv.slice(2).filter((f) => f !== '--any-inputs' && f !== '--steal' && f !== stealFile);
// The runs at their machine's default placement with estimates, oldest first: another placement is a configuration of
// its own, an old record has nothing to pool.
/** Why a kept record has nothing for this script, or null. */
const unusable = (k: KeptAnswers) =>
  placementOf(k) !== defaultPlacementOf(k)
    ? `placement ${placementOf(k)}, a configuration of its own`
    : !k.answers.some((x) => x.estimate)
      ? "no estimates (kept before pooling: it lacks the estimates' standard errors)"
      : null;
const read = files.map((f) => ({ f, k: JSON.parse(readFileSync(f, 'utf8')) as KeptAnswers }));
for (const { f, k } of read) if (unusable(k)) console.error(`pool-boots: left out ${f}: ${unusable(k)}`);
const records: KeptAnswers[] = read
  .map(({ k }) => k)
  .filter((k) => !unusable(k))
  .sort((a, b) => a.started_at.localeCompare(b.started_at));
if (records.length < 2) {
  console.error(
    `pool-boots: ${records.length} usable record${records.length === 1 ? '' : 's'} of ${files.length} given; ` +
      'usage: bun scripts/pool-boots.ts [--any-inputs] [--steal RESULTS.json] KEPT.json KEPT.json …  ' +
      '(two kept records or more of one machine, default placement, with estimates)',
  );
  process.exit(2);
}
const boots = bootsOf(records);
const key = (a: { a: string; b: string }) => `${a.a} / ${a.b}`;
const estimateOf = (k: KeptAnswers, id: string) => k.answers.find((x) => key(x) === id && !x.out)?.estimate;
/** Whether contender `c` ran from the same inputs in both records (what it runs where both recorded it). */
const sameInputs = (a: KeptAnswers, b: KeptAnswers, c: string) => {
  if (anyInputs) return true;
  const used = a.inputs_used?.[c] && b.inputs_used?.[c];
  return used ? a.inputs_used![c] === b.inputs_used![c] : !!a.inputs?.[c] && a.inputs[c] === b.inputs?.[c];
};

/** The differences of two records' estimates (b − a) and their variances, on the comparisons both measured. */
function differences(a: KeptAnswers, b: KeptAnswers, asked: (x: KeptAnswers['answers'][number]) => boolean) {
  const [d, v] = [[] as number[], [] as number[]];
  for (const x of a.answers.filter(asked)) {
    const [p, q] = [estimateOf(a, key(x)), estimateOf(b, key(x))];
    if (p && q) [d.push(q.ln - p.ln), v.push(p.se ** 2 + q.se ** 2)];
  }
  return { d, v, tau: Math.sqrt(runEffectVariance(d, v) / 2) };
}

console.log(
  '1. τ between two runs (the median z² of their differences at χ²₁ median), ' +
    (anyInputs ? 'on every comparison both measured, any inputs (--any-inputs)' : 'on the same inputs in both'),
);
/** τ of each pair, by kind: one boot, two boots in one condition (model/kept.ts conditionOf), two conditions. */
const byKind = new Map<string, number[]>();
for (let i = 0; i < records.length; i++)
  for (let j = i + 1; j < records.length; j++) {
    const [a, b] = [records[i]!, records[j]!];
    const { d, tau } = differences(a, b, (y) => sameInputs(a, b, y.a) && sameInputs(a, b, y.b));
    const same = boots.get(a.started_at) === boots.get(b.started_at) ? 'same boot' : 'two boots';
    const [ca, cb] = [conditionOf(a), conditionOf(b)];
    const at = `${a.started_at.slice(0, 16)} ${b.started_at.slice(0, 16)} ${same}, ${ca} and ${cb}`;
    console.log(`   ${at}: ${(100 * tau).toFixed(1)}% over ${d.length} comparisons`);
    const kind =
      same === 'same boot'
        ? `one boot, ${ca === cb ? (ca ?? 'condition unknown') : 'two conditions'}`
        : !ca || !cb
          ? 'two boots, a condition unknown'
          : ca === cb
            ? `two boots, both ${ca}`
            : 'two boots, quiet and contended';
    if (d.length) byKind.set(kind, [...(byKind.get(kind) ?? []), tau]);
  }
for (const [kind, taus] of byKind) {
  const [lo, hi, mid] = [Math.min(...taus), Math.max(...taus), median(taus)].map((x) => (100 * x).toFixed(1));
  console.log(`   ${kind}: ${taus.length} pair${taus.length === 1 ? '' : 's'}, τ ${lo}–${hi}% (median ${mid}%)`);
}
// By kind of question (client, runtime, framework, setting): a kind whose boots moved it less could have a smaller
// stated prior on τr of its own. Pairs on two boots only, each over that kind's comparisons both measured.
const kindOf = (x: { question?: string }) => x.question?.split(':')[0] ?? 'unknown';
for (const q of [...new Set(records.flatMap((k) => k.answers.map(kindOf)))]) {
  const taus: number[] = [];
  for (let i = 0; i < records.length; i++)
    for (let j = i + 1; j < records.length; j++) {
      const [a, b] = [records[i]!, records[j]!];
      if (boots.get(a.started_at) === boots.get(b.started_at)) continue;
      const { d, tau } = differences(a, b, (y) => kindOf(y) === q && sameInputs(a, b, y.a) && sameInputs(a, b, y.b));
      if (d.length) taus.push(tau);
    }
  if (!taus.length) continue;
  const [lo, hi, mid] = [Math.min(...taus), Math.max(...taus), median(taus)].map((x) => (100 * x).toFixed(1));
  console.log(`   ${q} questions, two boots: ${taus.length} pairs, τ ${lo}–${hi}% (median ${mid}%)`);
}

const random = seededRandom(7);
const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
/** The pool before 2026-12-04: one τr per machine, the stated prior updated by the family as (boots − 1) runs. */
function familyPrior(family: RunEstimate[][], nBoots: number, stated: number[]): PoolPrior {
  const w = nBoots > 1 ? (nBoots - 1) / family.length : 0;
  const logs = TAU_GRID.map(
    (tr, g) => Math.log(stated[g]!) + w * family.reduce((s, rs) => s + fitAt([rs], tr).logL, 0),
  );
  const max = Math.max(...logs);
  const raw = logs.map((x) => Math.exp(x - max));
  const z = raw.reduce((s, x) => s + x, 0);
  return {
    run: raw.map((x) => x / z),
    machine: TAU_GRID.map((t) => (t === 0 ? 1 : 0)),
    n: 0,
    nMachine: 0,
    machines: 1,
  };
}
const merge = (rs: (RunEstimate & { day: number })[]) =>
  [...new Set(rs.map((r) => r.day))].map((d) => {
    const g = rs.filter((r) => r.day === d);
    const sw = g.reduce((s, r) => s + 1 / r.se ** 2, 0);
    return {
      y: g.reduce((s, r) => s + r.y / r.se ** 2, 0) / sw,
      se: Math.sqrt(1 / sw),
      df: 30,
      run: `${d}`,
      machine: 'm',
    };
  });

console.log('2. null families (200 each): the share with any false "faster", at α / (k (k + 1)) for k runs');
const pairs: [number, number][] = [];
for (let i = 0; i < 16; i++) for (let j = i + 1; j < 16; j++) pairs.push([i, j]);
const P = pairs.filter((_, n) => n % 2 === 0 || n < 8).slice(0, 47);
for (const layout of [
  [0, 0, 1, 1],
  [0, 1, 2],
  [0, 0, 1, 1, 2, 2],
]) {
  const alpha = 0.05 / (layout.length * (layout.length + 1));
  const nBoots = new Set(layout).size;
  const row: string[] = [];
  for (const scale of [0.03, 0.06]) {
    const stated = halfNormalOnGrid(scale);
    let [asRuns, merged] = [0, 0];
    for (let f = 0; f < 200; f++) {
      const u = new Map(
        [...new Set(layout)].map((d) => [d, Array.from({ length: 16 }, (_, c) => (c < 3 ? 0.12 : 0.015) * normal())]),
      );
      const est = P.map(([a, b]) =>
        layout.map((d, r) => {
          const se = 0.012 + 0.025 * random();
          const y = u.get(d)![a]! - u.get(d)![b]! + 0.01 * normal() + se * normal();
          return { y, se, df: 30, run: `r${r}`, machine: 'm', day: d };
        }),
      );
      /** Whether the family decides any comparison "faster" (each is null: any is false). */
      const anyClaim = (family: RunEstimate[][]) => {
        const prior = familyPrior(family, nBoots, stated);
        const ps = family.map((rs) => poolRuns(rs, prior).p);
        return decidedLevels(ps, alpha).some((x) => x !== null);
      };
      if (anyClaim(est)) asRuns++;
      if (anyClaim(est.map(merge))) merged++;
    }
    row.push(`prior ${scale * 100}%: each run a draw ${asRuns / 2}%, a boot's runs merged ${merged / 2}%`);
  }
  console.log(`   boots of the runs ${layout.join(',')}: ${row.join('; ')}`);
}

console.log("3. the pool as it is, on boots drawn around these records' pooled means (60 draws each)");
const comparisons = records[0]!.answers.map((x) => ({ id: key(x), question: '', a: x.a, b: x.b }));
const truth = poolAnswers(records, comparisons, null, records[0]!.workload, 10).answers.map((a) => Math.log(a.ratio));
const names = [...new Set(comparisons.flatMap((c) => [c.a, c.b]))];
const today = Object.fromEntries(names.map((c) => [c, 'h']));
const drawn = (day: number): KeptAnswers => {
  const u = new Map(names.map((c) => [c, (/glide|iovalkey|next/.test(c) ? 0.09 : 0.01) * normal()]));
  return {
    ...records[0]!,
    started_at: new Date(Date.UTC(2026, 0, 1 + day)).toISOString(),
    host: { ...records[0]!.host!, boot_id: `boot ${day}` },
    inputs: today,
    inputs_used: undefined,
    answers: comparisons.map((c, i) => {
      const se = 0.012 + 0.015 * random();
      const ln = truth[i]! + u.get(c.a)! - u.get(c.b)! + se * normal();
      const estimate = { ln, se, df: 16, procedure: 'moderated-t' as const, rounds: [ln] };
      return { a: c.a, b: c.b, ratio: Math.exp(ln), lo: 0, hi: 9, verdict: 'undecided' as const, estimate };
    }),
  };
};
// The boots the fleet's workflow offers (its `boots`) among them: how many answer 2/3 of the comparisons, on average
// and in how many of the draws.
for (const k of [2, 3, 4, 6, 8, 9, 10, 12, 16]) {
  const counts = Array.from({ length: 60 }, () => {
    const runs = Array.from({ length: k }, (_, d) => drawn(d));
    const p = poolAnswers(runs, comparisons, { inputs: today }, records[0]!.workload, 10);
    return p.answers.filter((a) => a.verdict !== 'undecided').length;
  });
  const mean = counts.reduce((s, n) => s + n, 0) / counts.length;
  const twoThirds = counts.filter((n) => n * 3 >= comparisons.length * 2).length;
  console.log(
    `   ${k} boots of one run: ${mean.toFixed(1)} of ${comparisons.length} answered, on average; ` +
      `2/3 or more in ${twoThirds} of ${counts.length} draws`,
  );
}

console.log(
  "4. the records pooled by the pool's rules, all conditions together and each apart, at stated priors on τr",
);
{
  const last = records.at(-1)!;
  const used = { inputs: last.inputs ?? {}, used: last.inputs_used, used_scheme: last.inputs_used_scheme };
  for (const condition of ['all', 'quiet', 'contended'] as const) {
    const rs = records.filter((k) => condition === 'all' || conditionOf(k) === condition);
    if (!rs.length) continue;
    const pools = [0.06, 0.04, 0.03, 0.02].map((scale) => ({
      scale,
      p: poolAnswers(rs, comparisons, anyInputs ? null : used, last.workload, 10, undefined, { runScale: scale }),
    }));
    const at = pools.map(
      ({ scale, p }) => `${p.answers.filter((a) => a.pool.holds !== 'open').length} at ${scale * 100}%`,
    );
    // The runs and boots do not depend on the prior: read off the stated one's pool.
    const where = pools[0]!.p.priors
      .map((x) => `${x.runs} run${x.runs === 1 ? '' : 's'} on ${x.boots} boot${x.boots === 1 ? '' : 's'}`)
      .join(', ');
    console.log(`   ${condition} (${where}): of ${comparisons.length}, ${at.join(', ')}`);
  }
  // τr learnt also from the machine's runs of other inputs (answers/across-runs.ts Design.history).
  const rows = (['all', 'other-boots'] as const).map((history) => {
    const p = poolAnswers(records, comparisons, used, last.workload, 10, undefined, { history });
    const n = p.answers.filter((a) => a.pool.holds !== 'open').length;
    return `${n} from ${history === 'all' ? 'all their boots' : "the boots today's runs lack"}`;
  });
  if (!anyInputs)
    console.log(`   τr learnt also from other inputs' runs: of ${comparisons.length}, ${rows.join(', ')}`);
}

if (stealFile) {
  console.log(`5. ${stealFile}'s rounds left out above a CPU steal limit, against each quiet record (τ, median |d|)`);
  const full = JSON.parse(readFileSync(stealFile, 'utf8')) as Results;
  const quiet = records.filter((k) => conditionOf(k) === 'quiet');
  for (const limit of [100, 15, 8, 5, 3, 2, 1]) {
    const r = structuredClone(full);
    let [kept, left] = [0, 0];
    for (const c of r.contenders)
      for (const p of c.points) {
        const low = p.runs.filter((x) => !(x.cpu_steal_pct > limit));
        [kept, left] = [kept + low.length, left + p.runs.length - low.length];
        if (p === c.points[0]) c.runs = c.runs.filter((x) => !(x.cpu_steal_pct > limit));
        p.runs = low;
      }
    const k = recordOf(r, analyze(r));
    const against = quiet.map((q) => {
      const { d, tau } = differences(k, q, () => true);
      const mid = median(d.map(Math.abs));
      return `${q.started_at.slice(0, 10)} τ ${(100 * tau).toFixed(1)}%, |d| ${(100 * mid).toFixed(1)}% (${d.length})`;
    });
    const se = median(k.answers.flatMap((x) => (x.estimate ? [x.estimate.se] : [])));
    console.log(
      `   steal ≤ ${limit}%: ${kept} runs kept, ${left} left out, median se ${(100 * se).toFixed(1)}%; ` +
        against.join('; '),
    );
  }
}
