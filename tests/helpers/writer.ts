// The live writer's process (workloads/live/writer.ts) as the writer tests start, wait for and stop it, and the
// private Redis and scratch folder each of their files holds.
import { afterAll, beforeAll } from 'bun:test';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../../packages/harness/src/system/paths';
import { type RedisTarget, startPrivateRedis } from '../../packages/harness/src/topology/redis';
import { readWriterLog } from '../../packages/harness/src/workloads/live/writer';

/** A private Redis from dump.rdb and a scratch folder (`prefix`-…), made before the file's tests, gone after them. */
export function redisAndFolder(prefix: string): { redis: RedisTarget; dir: string } {
  const held = {} as { redis: RedisTarget; dir: string };
  beforeAll(async () => {
    held.redis = await startPrivateRedis(join(ROOT, 'dump.rdb'));
    held.dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
  });
  afterAll(async () => {
    await held.redis?.stop();
    if (held.dir) rmSync(held.dir, { recursive: true, force: true });
  });
  return held;
}

const WRITER = join(ROOT, 'packages/harness/src/workloads/live/writer.ts');

/** Start the writer (process.execPath is bun under bun test); the caller must see it exit. */
export function startWriter(args: string[]) {
  return Bun.spawn([process.execPath, WRITER, ...args], { stdout: 'pipe', stderr: 'pipe' });
}

/** Wait (at most 10 s) for the writer's header line: the schedule starts when it is written. */
export async function header(out: string): Promise<number> {
  for (let n = 0; n < 100; n++) {
    if (existsSync(out) && readFileSync(out, 'utf8').includes('\n')) return readWriterLog(out).start_ms;
    await Bun.sleep(100);
  }
  throw new Error('the writer logged no header within 10 s');
}

/** Stop with SIGTERM and return its exit code and stderr; SIGKILL if it ignores that for 5 s. */
export async function stop(w: ReturnType<typeof startWriter>): Promise<{ code: number; stderr: string }> {
  w.kill('SIGTERM');
  const code = await Promise.race([w.exited, Bun.sleep(5000).then(() => null)]);
  if (code === null) w.kill('SIGKILL');
  return { code: code ?? -1, stderr: await new Response(w.stderr).text() };
}

/** Redis ids as numbers that compare correctly: "ms-seq". */
const idKey = (id: string) => id.split('-').map(BigInt) as [bigint, bigint];
export const increasing = (a: string, b: string) => {
  const [am, as] = idKey(a);
  const [bm, bs] = idKey(b);
  return am < bm || (am === bm && as < bs);
};
