// The seed's method (the benchmark this project started from): one fresh process per contender,
// oha's defaults, three runs of 200 requests at 50 connections, the third one the headline.
// --profile seed measures it alone; --with-seed adds it after the suite.
import type { Results } from '../model/results';
import { info, log } from '../system/progress';
import type { Launcher } from './launch';
import { record, runLine } from './record';
import { seedTrial } from './trial';

/** --profile seed: the original method alone, one process per contender, the third of three runs. */
export async function seedProfile(launcher: Launcher, results: Results, save: () => void): Promise<boolean> {
  for (const r of results.contenders.filter((x) => x.status === 'incomplete' && !x.runs.length)) {
    const outcome = await seedTrial(launcher, r);
    if (outcome.kind === 'runs') {
      r.points[0]!.runs.push(...outcome.runs);
      for (const run of outcome.runs) info(`${r.name} seed method run ${run.round}/3: ${runLine(run)}`);
    } else if (!record(results, r, r.points[0]!, outcome, `${r.name}'s seed method`, 0)) {
      return false;
    }
    save();
  }
  return true;
}

/** --with-seed: the seed's method on every contender still in, after the suite, in the same invocation. */
export async function seedMethod(launcher: Launcher, results: Results, save: () => void): Promise<void> {
  for (const r of results.contenders.filter(
    (x) => x.status === 'incomplete' && !x.self_check_of && !x.ceiling && !x.seed_method,
  )) {
    const outcome = await seedTrial(launcher, r);
    if (outcome.kind !== 'runs') {
      log(
        `${r.name}: the seed method could not be measured: ${outcome.kind === 'out' ? outcome.reason : 'Redis died'}`,
      );
      continue;
    }
    const rps = outcome.runs.map((x) => x.rps);
    r.seed_method = { rps, headline: rps[2]! };
    info(`${r.name} seed method: ${rps.map((x) => x.toFixed(0)).join(', ')} req/s (third: ${rps[2]!.toFixed(0)})`);
    save();
  }
}
