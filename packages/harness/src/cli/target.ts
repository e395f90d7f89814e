// --target URL: measure one app someone started by hand, usually on another host (the
// three-host layout, README), reading the Redis that REDIS_URL names. Nothing is built or
// launched: the run is prepared as a plan of one contender (run/target.ts) and measured by the
// schedule and finish of every run, on a launcher that starts nothing (run/remote.ts): the body
// verified byte for byte, --windows windows with the usual counters (oha, Redis commandstats,
// steal), the body checked after each. The app's CPU and memory live where this host cannot see
// them: null in results.json, "not measured" in the report.
import type { CliOptions } from '../run/options';
import { useExistingRedis } from '../topology/redis';
import type { Session } from '../run/state';
import { log } from '../system/progress';
import { prepareTarget } from '../run/target';
import { measureToEnd } from '../run/bench';
import { writeReport } from '../publish/files';
import { analyzeRun } from '../publish/index';

export async function runTarget(opts: CliOptions, session: Session): Promise<number> {
  const redisUrl = process.env.REDIS_URL;
  if (!redisUrl)
    throw new Error(
      '--target needs REDIS_URL=redis://host:port, the Redis that app ' +
        'reads (the golden body and the reads per request come from it)',
    );
  // --target reads the Redis the app reads: there is no private one to unset REDIS_URL for.
  session.redis = useExistingRedis(redisUrl, true);
  const { code, results, runDir } = await measureToEnd(await prepareTarget(opts, session), session);
  await writeReport(runDir, analyzeRun(runDir), opts.report);
  const r = results.contenders[0]!;
  log(
    `${r.name}: ${r.status}${r.reason ? ` (${r.reason})` : ''}; ` +
      `results in ${runDir} (a --target run is never published)`,
  );
  return code;
}
