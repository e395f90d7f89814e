// A newcomer's shell for the tests that follow the docs as written: no tool from the project's cache on PATH (a line
// works only if it brings its own), each line in its own process group so its whole tree can be stopped.
import { spawn, type ChildProcess } from 'node:child_process';
import { ROOT } from '../../packages/harness/src/system/paths';

/** The environment with every folder of the project's cache taken off PATH. */
export const newcomerEnv = () => ({
  ...process.env,
  PATH: (process.env.PATH ?? '')
    .split(':')
    .filter((p) => !p.includes('redis-stream-bench'))
    .join(':'),
});

/** One shell line from the checkout's root, added to `running` (for the caller to stop), its output kept. */
export function newcomerShell(line: string, running: ChildProcess[]): ChildProcess & { output: () => string } {
  const child = spawn('bash', ['-c', line], {
    cwd: ROOT,
    detached: true,
    env: newcomerEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (b) => (out += b));
  child.stderr!.on('data', (b) => (out += b));
  running.push(child);
  return Object.assign(child, { output: () => out });
}
