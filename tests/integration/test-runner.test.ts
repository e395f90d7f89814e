// npm test's runner (scripts/test.ts) cleans up after the suite: what still runs from the suite's temporary folder is
// killed and named, what the folder held is named by kind.
import { expect, test } from 'bun:test';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { leftovers, stopStrays } from '../../scripts/test';
import { isAlive } from '../../packages/harness/src/system/proc';

test("the suite's runner kills what runs from its folder (by TMPDIR or working folder), nothing else", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'runner-'));
  mkdirSync(join(dir, 'redis'));
  const sleep = (opts: { env?: NodeJS.ProcessEnv; cwd?: string }): ChildProcess =>
    spawn('sleep', ['30'], { stdio: 'ignore', ...opts });
  const byEnv = sleep({ env: { ...process.env, TMPDIR: dir } });
  const byCwd = sleep({ cwd: join(dir, 'redis'), env: { PATH: process.env.PATH } });
  const other = sleep({ env: { ...process.env, TMPDIR: `${dir}-other` } });
  try {
    // Until each has exec'd sleep (before, a child has this process's environment and folder), at most 5 s.
    const execd = (p: ChildProcess) => readFileSync(`/proc/${p.pid}/cmdline`, 'utf8').startsWith('sleep');
    for (let i = 0; i < 250 && ![byEnv, byCwd, other].every(execd); i++) await Bun.sleep(20);
    const names = stopStrays(dir);
    expect(names.sort()).toEqual([`sleep-${byEnv.pid}`, `sleep-${byCwd.pid}`].sort());
    expect(leftovers(names)).toBe('sleep ×2');
    for (let i = 0; i < 50 && (isAlive(byEnv.pid!) || isAlive(byCwd.pid!)); i++) await Bun.sleep(20);
    expect([isAlive(byEnv.pid!), isAlive(byCwd.pid!), isAlive(other.pid!)]).toEqual([false, false, true]);
    expect(leftovers(['bench-test-Ab3dE9', 'bench-test-xY12zq', 'rdb-QQQQQQ', 'node-compile-cache'])).toBe(
      'bench-test ×2, node-compile-cache, rdb',
    );
  } finally {
    other.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
});
