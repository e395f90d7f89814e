// The noise of each change's pair, per design, over a whole --against (or --handicap) run: window
// pairs, sd of a pair's ln ratio, its split into a launch's share and the rest, sd of a round's
// mean, the mean with its t interval and standard error, and the signed-rank interval. The run's
// own `changes.design` holds the figures it chose on (after round 3); this reads every round.
//   bash scripts/with-tools.sh bun scripts/pair-noise.ts results/<run> [results/<run> …]
// With --rounds FILE: also write each pair's rounds of the chosen design, as lists of window-pair
// ln ratios, centred on the run's mean (an A/A's rounds under the exact null), for the null
// simulation of tests/unit/against.test.ts. With --as-measured, the rounds are written as measured (not centred, in
// their order, head first): real A/As, each run's own offset between the sides kept.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { mean } from '../packages/harness/src/stats/stats';
import jstat from 'jstat';
import type { RunRecord } from '../packages/harness/src/model/results';
import { readResults } from '../packages/harness/src/model/results-file';
import { signedRank } from '../packages/harness/src/stats/signed-rank';

const sd = (xs: number[]) => Math.sqrt(xs.reduce((s, x) => s + (x - mean(xs)) ** 2, 0) / (xs.length - 1));
const pct = (x: number) => `${(x * 100).toFixed(2)}%`;

const args = process.argv.slice(2);
const roundsAt = args.indexOf('--rounds');
const roundsFile = roundsAt >= 0 ? args.splice(roundsAt, 2)[1] : null;
const asMeasuredAt = args.indexOf('--as-measured');
const asMeasured = asMeasuredAt >= 0 && args.splice(asMeasuredAt, 1).length > 0;
const recorded: { run: string; design: string; rounds: number[][] }[] = [];
// Over the runs, in their chosen design: each run's mean ln ratio, and its rounds' head-first mean less base-first.
const runMeans: number[] = [];
const orderGaps: number[] = [];
// Each run's lag-1 autocorrelation of its round means: the test takes rounds as independent.
const lag1: number[] = [];
const autocorrelation = (xs: number[]) => {
  const m = mean(xs);
  const num = xs.slice(1).reduce((a, x, i) => a + (x - m) * (xs[i]! - m), 0);
  return num / xs.reduce((a, x) => a + (x - m) ** 2, 0);
};

for (const dir of args) {
  const r = readResults(join(dir, 'results.json'));
  const byName = new Map(r.contenders.map((c) => [c.name, c]));
  for (const c of r.changes?.comparisons ?? []) {
    const base = new Map((byName.get(c.b)?.points[0]?.runs ?? []).map((x) => [x.round, x]));
    for (const [design, of] of [
      ['alternating', (x: RunRecord) => x.windows],
      ['duet', (x: RunRecord) => x.duet],
    ] as const) {
      const pairs: number[] = [];
      const rounds: number[] = [];
      const lists: number[][] = [];
      // Each round's mean by which side was launched first in it.
      const byOrder: Record<'head' | 'base', number[]> = { head: [], base: [] };
      for (const h of byName.get(c.a)?.points[0]?.runs ?? []) {
        const b = base.get(h.round);
        const ys = of(b ?? ({} as RunRecord)) ?? [];
        const d = (of(h) ?? []).flatMap((x, j) =>
          x.rps > 0 && ys[j] && ys[j]!.rps > 0 ? [Math.log(x.rps / ys[j]!.rps)] : [],
        );
        pairs.push(...d);
        if (d.length) [rounds.push(mean(d)), lists.push(d)];
        if (d.length && b) byOrder[h.started_at < b.started_at ? 'head' : 'base'].push(mean(d));
      }
      if (rounds.length < 2) continue;
      const chosen = (r.changes?.design?.chosen ?? 'alternate') === 'duet' ? 'duet' : 'alternating';
      const m = asMeasured ? 0 : mean(pairs);
      if (design === chosen) {
        recorded.push({ run: r.started_at, design, rounds: lists.map((l) => l.map((x) => +(x - m).toFixed(5))) });
        runMeans.push(mean(rounds));
        lag1.push(autocorrelation(rounds));
        orderGaps.push(
          ...(byOrder.head.length && byOrder.base.length ? [mean(byOrder.head) - mean(byOrder.base)] : []),
        );
      }
      // The launch's share of the noise: one-way analysis of variance over the rounds of 2+ pairs.
      const full = lists.filter((l) => l.length > 1);
      const k = full.length ? mean(full.map((l) => l.length)) : NaN;
      const within =
        full.reduce((s, l) => s + l.reduce((a, x) => a + (x - mean(l)) ** 2, 0), 0) /
        full.reduce((s, l) => s + l.length - 1, 0);
      const launch = Math.sqrt(Math.max(0, sd(full.map(mean)) ** 2 - within / k));
      // The mean's t interval and the signed-rank (Hodges–Lehmann) interval, at the 91% a final "equal" is judged at.
      const t = jstat.studentt.inv(0.955, rounds.length - 1) * (sd(rounds) / Math.sqrt(rounds.length));
      const hl = signedRank(rounds, 0.91);
      const cols = [
        `pairs ${pairs.length}`,
        `sd/pair ${pct(sd(pairs))}`,
        `within ${pct(Math.sqrt(within))}`,
        `launch ${pct(launch)}`,
        `rounds ${rounds.length}`,
        `sd/round ${pct(sd(rounds))}`,
        `mean ${pct(mean(rounds))} (${pct(mean(rounds) - t)}…${pct(mean(rounds) + t)})`,
        `se ${pct(sd(rounds) / Math.sqrt(rounds.length))}`,
        `HL ${pct(Math.log(hl.ratio))} (${pct(Math.log(hl.lo))}…${pct(Math.log(hl.hi))})`,
        ...(['head', 'base'] as const).map(
          (k) => `${k} first ${byOrder[k].length}: ${byOrder[k].length ? pct(mean(byOrder[k])) : '–'}`,
        ),
      ];
      console.log(`${dir}\t${c.a}\t${design}\t${cols.join('\t')}`);
    }
  }
}

/** The mean of xs with its 95% t interval, as a share. */
const tInterval = (xs: number[]) => {
  const h = jstat.studentt.inv(0.975, xs.length - 1) * (sd(xs) / Math.sqrt(xs.length));
  return `${pct(mean(xs))} (${pct(mean(xs) - h)}…${pct(mean(xs) + h)}, 95%)`;
};
if (runMeans.length > 2) {
  // Across A/As, the offset between the sides (a path, a build, an install) and the order of their launches.
  console.log(`over ${runMeans.length} runs: mean ln ratio ${tInterval(runMeans)}`);
  console.log(`lag-1 autocorrelation of a run's round means: ${tInterval(lag1).replaceAll('%', '')} (×100)`);
  if (orderGaps.length > 2)
    console.log(`head launched first less base first, per run: ${tInterval(orderGaps)} over ${orderGaps.length} runs`);
}

if (roundsFile) {
  const by = `scripts/pair-noise.ts --rounds${asMeasured ? ' --as-measured' : ''}`;
  writeFileSync(roundsFile, `${JSON.stringify({ generated_by: by, recorded })}\n`);
  console.log(`${roundsFile}: ${recorded.length} runs, ${recorded.reduce((n, x) => n + x.rounds.length, 0)} rounds`);
}
