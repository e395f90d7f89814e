// A contender's inputs: what it is built and started from, hashed. Two sides with the same inputs run the same code
// (--against pairs only those that differ, against.ts changedOn), and a kept run is pooled only with runs of the same
// inputs (answers/pool.ts, run/pooled.ts).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { loadSuite, type Contender } from '../model/contenders';
import { namedFiles } from '../measure/apps';

export const CACHE = join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'redis-stream-bench');
export const git = (cwd: string, args: string[]) => spawnSync('git', ['-C', cwd, ...args], { encoding: 'utf8' });

/**
 * What a contender is built and started from, on one side: its app folder, packages/stream, the root package.json and
 * bun.lock, and any file outside the app folder that its build or start names (measure/apps.ts namedFiles: a build
 * script). Files git ignores (build outputs, node_modules) are left out. Two sides with the same inputs run the same
 * code: pairing them is an A/A. This hash is a kept run's identity for pooling (answers/pool.ts), so it keeps the files
 * it was first defined on; bunfig.toml, which sets how bun installs, is compared apart (changedOn) and is in the build
 * key (measure/apps.ts buildApp).
 */
export function inputsOf(c: Contender): string {
  const root = resolve(c.appDir, '..', '..');
  const paths = [
    c.appDir,
    join(root, 'packages', 'stream'),
    join(root, 'package.json'),
    join(root, 'bun.lock'),
    ...namedFiles(c),
  ];
  const hash = createHash('sha256');
  for (const f of filesUnder(root, paths)) {
    hash.update(relative(root, f)).update('\0');
    hash.update(existsSync(f) ? contentOf(root, f) : 'absent').update('\0');
  }
  return hash.digest('hex');
}

/**
 * A file as an input: the root package.json without its "scripts" (the project's own commands, such as `npm run
 * pool`, build and run no app), every other file as it is.
 */
function contentOf(root: string, f: string): Buffer | string {
  const raw = readFileSync(f);
  if (f !== join(root, 'package.json')) return raw;
  try {
    const { scripts: _, ...rest } = JSON.parse(raw.toString('utf8'));
    return JSON.stringify(rest);
  } catch {
    return raw;
  }
}

/**
 * Each contender's inputs (inputsOf) with the version of the runtime it runs on, hashed: what a kept run records so
 * that runs of the same code can be pooled (answers/pool.ts).
 */
export function contenderInputs(cs: Contender[], runtimes: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    cs.map((c) => {
      const h = createHash('sha256')
        .update(inputsOf(c))
        .update(`\0${c.runtime} ${runtimes[c.runtime] ?? 'unknown'}`);
      return [c.name, h.digest('hex').slice(0, 16)];
    }),
  );
}

/**
 * The inputs (contenderInputs) of the named contenders as they were at `commit` of the repository at `repo`, read
 * from a worktree checked out for the purpose and removed after: for results recorded before runs kept them. Null
 * when the commit is not in the repository or its apps cannot be read.
 */
export function inputsAtCommit(
  repo: string,
  commit: string,
  names: string[],
  runtimes: Record<string, string>,
): Record<string, string> | null {
  if (git(repo, ['cat-file', '-e', `${commit}^{commit}`]).status !== 0) return null;
  const wt = join(CACHE, 'inputs', commit.slice(0, 12));
  rmSync(wt, { recursive: true, force: true });
  mkdirSync(join(CACHE, 'inputs'), { recursive: true });
  try {
    if (git(repo, ['worktree', 'add', '--force', '--detach', wt, commit]).status !== 0) return null;
    const suite = loadSuite(join(wt, 'apps')).contenders.filter((c) => names.includes(c.name));
    return contenderInputs(suite, runtimes);
  } catch {
    return null;
  } finally {
    git(repo, ['worktree', 'remove', '--force', wt]);
    rmSync(wt, { recursive: true, force: true });
    git(repo, ['worktree', 'prune']);
  }
}

/** The files under these paths, sorted: git's view (tracked and untracked, not ignored) where root is in a repo. */
function filesUnder(root: string, paths: string[]): string[] {
  const listed = git(root, [
    'ls-files',
    '-co',
    '--exclude-standard',
    '-z',
    '--',
    ...paths.map((p) => relative(root, p)),
  ]);
  if (listed.status === 0)
    return [...new Set(listed.stdout.split('\0').filter(Boolean))]
      .map((f) => join(root, f))
      .filter((f) => existsSync(f) && statSync(f).isFile())
      .sort();
  // Not in git: walk, leaving out what is never an input.
  const out: string[] = [];
  const walk = (p: string) => {
    if (!existsSync(p)) return;
    if (!statSync(p).isDirectory()) return void out.push(p);
    for (const d of readdirSync(p)) if (!d.startsWith('.') && d !== 'node_modules' && d !== 'dist') walk(join(p, d));
  };
  for (const p of paths) walk(p);
  return out.sort();
}

/** How bun installs a contender's side: its checkout's bunfig.toml (a hoisted or isolated node_modules, exact pins). */
export function installConfig(c: Contender): string {
  const f = join(resolve(c.appDir, '..', '..'), 'bunfig.toml');
  return existsSync(f) ? readFileSync(f, 'utf8') : 'absent';
}
