// Stopping a child a test started with its own process group: its whole tree, TERM then KILL.
import type { ChildProcess } from 'node:child_process';
import { isAlive, processTree } from '../../packages/harness/src/system/proc';

/** Stops a child's whole process tree (TERM, then KILL after 5 s) and returns the pids that outlived it. */
export async function stopTree(child: ChildProcess): Promise<number[]> {
  const tree = processTree(child.pid!);
  for (const sig of ['SIGTERM', 'SIGKILL'] as const) {
    try {
      process.kill(-child.pid!, sig);
    } catch {}
    for (const pid of tree)
      try {
        process.kill(pid, sig);
      } catch {}
    for (let i = 0; i < 50 && tree.some(isAlive); i++) await Bun.sleep(100);
  }
  return tree.filter(isAlive);
}
