// --against's test fixtures: folders and repositories holding a copy of the paced app (tests/fixtures/apps/paced), its
// sleep per client set, beside this checkout's node_modules; each removed after its file's tests.
import { afterAll } from 'bun:test';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FAKE_APPS } from './cli';
import { ROOT } from '../../packages/harness/src/system/paths';

export const [NR, IO] = ['bun-raw-paced-node-redis', 'bun-raw-paced-ioredis'];
export const PACED = ['--connections', '4', '--duration', '300ms', '--warmup', '200ms'];
const temps: string[] = [];
afterAll(() => {
  for (const t of temps) rmSync(t, { recursive: true, force: true });
});

/**
 * A folder holding a copy of the paced app, its sleep per client set to `pace`; its imports resolve through this
 * checkout's node_modules.
 */
export function pacedCopy(root: string, pace: string, extra: (m: Record<string, unknown>) => void = () => {}): string {
  mkdirSync(root, { recursive: true });
  cpSync(join(FAKE_APPS, 'paced'), join(root, 'paced'), { recursive: true });
  const file = join(root, 'paced/bench.json');
  const m = JSON.parse(readFileSync(file, 'utf8'));
  m.env.PACE_MS = pace;
  extra(m);
  writeFileSync(file, JSON.stringify(m, null, 2));
  return root;
}

export function tempDir(): string {
  const t = mkdtempSync(join(tmpdir(), 'bench-against-'));
  temps.push(t);
  return t;
}

/** git in `cwd`, as a test user. */
export const git = (cwd: string, ...args: string[]) =>
  spawnSync('git', ['-C', cwd, '-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { encoding: 'utf8' });

/** `root` made a git repository of the paced and fake test apps and a one-line packages/stream, committed once. */
export function appsRepo(root: string): string {
  for (const app of ['paced', 'fake'])
    cpSync(join(ROOT, 'tests/fixtures/apps', app), join(root, 'apps', app), { recursive: true });
  mkdirSync(join(root, 'packages/stream'), { recursive: true });
  writeFileSync(join(root, 'packages/stream/index.ts'), 'export const x = 1;\n');
  writeFileSync(join(root, '.gitignore'), 'dist/\nnode_modules/\n');
  git(root, 'init', '-q');
  git(root, 'add', '-A');
  git(root, 'commit', '-qm', 'one');
  return root;
}

export const change = (json: any, name: string) => json.changes.answers.find((a: any) => a.a === name);

/** A folder of apps beside this checkout's node_modules: the paced app with its sleep per client set to `pace`. */
export function baseFolder(pace: string, extra?: (m: Record<string, unknown>) => void): string {
  const dir = tempDir();
  const base = pacedCopy(join(dir, 'apps'), pace, extra);
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  return base;
}
