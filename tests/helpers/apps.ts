// Starting one contender against a test's private Redis: built once per app and build command (as the bench builds),
// started on a free port, handed to `fn`, always stopped (while the next test runs).
import { buildApp, dataKey, startApp, type RunningApp } from '../../packages/harness/src/measure/apps';
import type { Contender } from '../../packages/harness/src/model/contenders';
import { appEnvironment } from '../../packages/harness/src/run/rig';

/**
 * `withApp(c, fn)` for a test file: `target()` gives its Redis and golden body once they exist; `pids` collects. An app
 * is stopped while the next test runs (Elysia on Node takes half a second to stop); `stopped()` waits for them all.
 */
export function appStarter(target: () => { redisUrl: string; golden: string }, pids: number[]) {
  const built = new Map<string, Promise<unknown>>();
  const stopping: Promise<unknown>[] = [];
  const withApp = async <T>(c: Contender, fn: (app: RunningApp) => Promise<T>, workload = 'xrange'): Promise<T> => {
    const { redisUrl, golden } = target();
    // A handicapped twin needs its calibrated µs; any fixed one shows the body it serves.
    const env = {
      ...appEnvironment(c, redisUrl, workload),
      ...c.env,
      ...(c.settings.handicap === 'on' ? { HANDICAP_US: '100' } : {}),
    };
    // One build per app and build command; one that reads Redis (static pages) is asked again for each stream, and
    // buildApp's key tells whether the stream changed.
    const key = `${c.app} ${JSON.stringify(c.build)}`;
    if (!built.has(key) || c.buildReadsData) built.set(key, buildApp(c, env, dataKey(golden)));
    await built.get(key);
    const app = await startApp(c, { env, timeoutMs: 60_000 });
    pids.push(app.pid);
    try {
      return await fn(app);
    } finally {
      stopping.push(app.stop());
    }
  };
  return { withApp, stopped: () => Promise.all(stopping) };
}
