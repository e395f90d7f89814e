// WORKERS=N above 1: the process the harness starts becomes a primary that forks N copies of
// itself with node:cluster and serves nothing; each copy (a worker) goes on as the app would
// alone, with its own Redis connection and its own server on the same port.
import cluster from 'node:cluster';

/** How long the primary gives its workers to end after a stop before it kills them. */
const STOP_GRACE_MS = 2000;

/**
 * For Bun.serve and Deno.serve's `reusePort`: true in a worker only. node:http servers share the
 * port through node:cluster, but those two bind it themselves, so every worker needs SO_REUSEPORT;
 * an app alone must still fail on a port that is taken.
 */
export const REUSE_PORT: boolean = cluster.isWorker;

type DenoPermissions = { permissions: { querySync(d: { name: string }): { state: string } } };

/** Deno forks with node:cluster only when allowed to run its own executable; say so before forking. */
function checkRuntime(count: number): void {
  const deno = (globalThis as { Deno?: DenoPermissions }).Deno;
  if (deno && deno.permissions.querySync({ name: 'run' }).state !== 'granted') {
    throw new Error(
      `WORKERS=${count} on Deno needs --allow-run (node:cluster runs the deno executable for each worker) ` +
        "and --unstable-net (Deno.serve's reusePort is unstable); this start command has not got them",
    );
  }
}

/**
 * In the primary (WORKERS above 1): forks the workers and never returns; the process ends when a
 * worker does (exit 1: the app has failed) or when it is stopped (SIGTERM, SIGINT: workers too).
 * In a worker, or with one worker, returns at once.
 */
export async function startWorkers(count: number): Promise<void> {
  // A worker returns, and stops by itself when its primary's channel closes (node:cluster does
  // that on Node, Bun and Deno), so a primary killed outright leaves no worker behind.
  if (cluster.isWorker || count <= 1) return;
  checkRuntime(count);
  const alive = new Set(Array.from({ length: count }, () => cluster.fork()));
  let stopping = false;
  const stop = (exitCode: number) => {
    if (stopping) return;
    stopping = true;
    for (const w of alive) w.process.kill('SIGTERM');
    if (alive.size === 0) process.exit(exitCode);
    // Bounded: a worker that ignores SIGTERM is killed once the grace period is over.
    setTimeout(() => {
      for (const w of alive) w.process.kill('SIGKILL');
      process.exit(exitCode);
    }, STOP_GRACE_MS).unref();
    cluster.on('exit', () => alive.size === 0 && process.exit(exitCode));
  };
  cluster.on('exit', (worker, code, signal) => {
    alive.delete(worker);
    if (stopping) return;
    console.error(`WORKERS: worker ${worker.process.pid} exited (${signal ?? `code ${code}`}); stopping the app`);
    stop(1);
  });
  process.once('SIGTERM', () => stop(0));
  process.once('SIGINT', () => stop(0));
  // Only process.exit above ends the primary: the app's code after this call never runs here.
  return new Promise<never>(() => {});
}
