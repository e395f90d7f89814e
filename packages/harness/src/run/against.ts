// --against: the other version of the apps, measured side by side with this checkout's in one run.
// A git ref is checked out into a worktree under the cache and installed from its own lockfile;
// a directory is another folder of apps (a user's own). Either way every selected contender gets
// a twin named <name>@base, built and started from the other side, and the harness of this
// checkout measures both.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, join, relative, resolve } from 'node:path';
import { loadSuite, type Contender, type Unsupported } from '../model/contenders';
import { namedFiles } from '../measure/apps';
import { baseName } from '../model/questions';
import type { Settings } from '../model/results';
import { readResults, resultsFile } from '../model/results-file';

/** What --against names, resolved: where the other side's apps are, and the commit they come from. */
export interface OtherSide {
  /** As given on the command line. */
  spec: string;
  kind: 'ref' | 'dir' | 'self';
  /** The commit of a ref (null for a directory). */
  commit: string | null;
  /** The git repository the ref was resolved in, and the worktree it is checked out into. */
  repo: string | null;
  worktree: string | null;
  appsDir: string;
}

export class AgainstError extends Error {}

const CACHE = join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'redis-stream-bench');

const git = (cwd: string, args: string[]) => spawnSync('git', ['-C', cwd, ...args], { encoding: 'utf8' });
const hasApps = (dir: string) =>
  existsSync(dir) && readdirSync(dir).some((d) => existsSync(join(dir, d, 'bench.json')));

/**
 * --against SPEC: a directory of apps (or a checkout holding apps/), else a git ref of the
 * repository that holds this run's apps. Only names are checked here; nothing is installed.
 */
export function resolveAgainst(spec: string, appsDir: string): OtherSide {
  const asDir = resolve(spec);
  const folder = existsSync(asDir) && statSync(asDir).isDirectory();
  const apps = folder ? (hasApps(asDir) ? asDir : join(asDir, 'apps')) : null;
  if (apps && hasApps(apps)) return { spec, kind: 'dir', commit: null, repo: null, worktree: null, appsDir: apps };
  // A folder without apps (a branch named "docs" or "results" beside this checkout's folders of that name) is a ref.
  const top = git(appsDir, ['rev-parse', '--show-toplevel']);
  const repo = top.status === 0 ? top.stdout.trim() : null;
  const rev = repo ? git(repo, ['rev-parse', '--verify', '--quiet', `${spec}^{commit}`]) : null;
  if (!repo || rev?.status !== 0) {
    if (folder)
      throw new AgainstError(
        `--against "${spec}": the folder holds no app (no <app>/bench.json in it or in its apps/), ` +
          'and no git ref has that name; name a folder of apps or a git ref',
      );
    if (!repo)
      throw new AgainstError(
        `--against "${spec}": no such folder, and ${appsDir} is not in a git repository to find it as a ref in`,
      );
    throw new AgainstError(
      `--against "${spec}": no such git ref or folder; ` +
        'name a commit, branch or tag (git log --oneline) or a folder of apps',
    );
  }
  const commit = rev!.stdout.trim();
  const worktree = join(CACHE, 'against', `${basename(repo)}-${commit.slice(0, 12)}`);
  return { spec, kind: 'ref', commit, repo, worktree, appsDir: join(worktree, relative(repo, appsDir)) };
}

/**
 * --handicap without --against: the other side is this checkout's own apps (the plain twin beside the handicapped one).
 */
export const selfSide = (appsDir: string): OtherSide => ({
  spec: '.',
  kind: 'self',
  commit: null,
  repo: null,
  worktree: null,
  appsDir,
});

/**
 * The other side a run recorded (settings.against), resolved again for --resume: the same commit (its worktree made
 * again if it was dropped), folder or self, under the name it was first given.
 */
export function recordedSide(a: Settings['against'], appsDir: string): OtherSide | null {
  if (!a) return null;
  if (a.kind === 'self') return selfSide(appsDir);
  const side = resolveAgainst(a.kind === 'ref' ? a.commit! : a.apps_dir, appsDir);
  return { ...side, spec: a.spec };
}

/**
 * The run's other side: --against's ref or folder, checked now, before anything starts; --handicap alone pairs with
 * this checkout's own apps; a resumed run pairs with the side it started with (null: it has none, or its results
 * cannot be read, which prepare then says).
 */
export function otherSideOf(
  o: { resume: string | null; against: string | null; handicap: string | null },
  appsDir: string,
): OtherSide | null {
  if (o.resume) {
    let settings: Settings;
    try {
      settings = readResults(resultsFile(resolve(o.resume))).settings;
    } catch {
      return null;
    }
    return recordedSide(settings.against, appsDir);
  }
  if (o.against !== null) return resolveAgainst(o.against, appsDir);
  return o.handicap ? selfSide(appsDir) : null;
}

/** Worktrees kept under the cache besides the one being made: the most recently used. */
const KEEP_WORKTREES = 3;

/**
 * Each ref's worktree holds an install of its own: keep the few used last, remove the rest (and git's records of them).
 */
function dropOldWorktrees(repo: string): void {
  const dir = join(CACHE, 'against');
  const all = readdirSync(dir)
    .map((d) => join(dir, d))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  for (const old of all.slice(KEEP_WORKTREES)) rmSync(old, { recursive: true, force: true });
  git(repo, ['worktree', 'prune']);
}

const lastLine = (s: string) => s.trim().split('\n').filter(Boolean).at(-1) ?? '';

/**
 * A ref's worktree, checked out and installed from that ref's own lockfile (once: the lockfile's
 * hash, stamped in its node_modules, marks it done). Errors are one line: what failed, where, and the fix.
 */
export function checkOut(side: OtherSide, log: (s: string) => void): void {
  if (side.kind !== 'ref') return;
  const wt = side.worktree!;
  if (!existsSync(join(wt, '.git'))) {
    mkdirSync(join(CACHE, 'against'), { recursive: true });
    dropOldWorktrees(side.repo!);
    log(`--against ${side.spec}: checking out ${side.commit!.slice(0, 12)} into ${wt}`);
    const add = git(side.repo!, ['worktree', 'add', '--force', '--detach', wt, side.commit!]);
    if (add.status !== 0)
      throw new AgainstError(
        `--against ${side.spec}: git worktree add failed: ${lastLine(add.stderr)}; remove ${wt} and try again`,
      );
  }
  // Used now: the last to be dropped.
  utimesSync(wt, new Date(), new Date());
  const lock = join(wt, 'bun.lock');
  if (!existsSync(lock)) return;
  const stamp = join(wt, 'node_modules', '.bench-against-stamp');
  const want = createHash('sha256').update(readFileSync(lock)).digest('hex');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === want) return;
  log(`--against ${side.spec}: installing its dependencies (bun install --frozen-lockfile in ${wt})`);
  const install = spawnSync('bun', ['install', '--frozen-lockfile'], { cwd: wt, encoding: 'utf8' });
  if (install.status !== 0) {
    throw new AgainstError(
      `--against ${side.spec}: bun install --frozen-lockfile failed in ${wt}: ` +
        `${lastLine(install.stderr || install.stdout)}; that commit's bun.lock must match its package.json files`,
    );
  }
  writeFileSync(stamp, want);
}

/**
 * The other side's twin of each selected contender, named <name>@base, or why it has none (its
 * manifest does not generate that name). The twin keeps its own app folder, build and start.
 */
export function baseTwins(side: OtherSide, selected: Contender[]): { twins: Contender[]; missing: Unsupported[] } {
  let theirs: Contender[];
  try {
    theirs = loadSuite(side.appsDir).contenders;
  } catch (e) {
    throw new AgainstError(`--against ${side.spec}: its apps cannot be read: ${(e as Error).message}`);
  }
  const twins: Contender[] = [];
  const missing: Unsupported[] = [];
  for (const c of selected) {
    const t = theirs.find((x) => x.name === c.name);
    if (t) twins.push({ ...t, name: baseName(c.name), suites: c.suites });
    else missing.push({ name: baseName(c.name), reason: `--against ${side.spec} has no contender ${c.name}` });
  }
  return { twins, missing };
}

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
function installConfig(c: Contender): string {
  const f = join(resolve(c.appDir, '..', '..'), 'bunfig.toml');
  return existsSync(f) ? readFileSync(f, 'utf8') : 'absent';
}

/**
 * Which selected contenders differ from the other side: those whose inputs (inputsOf) are not the same on both, and
 * those the other side lacks. Only these are paired; when none differs, every one is (the run is an A/A).
 */
export function changedOn(side: OtherSide, selected: Contender[]): { changed: Contender[]; unchanged: string[] } {
  if (side.kind === 'self') return { changed: selected, unchanged: [] };
  let theirs: Contender[];
  try {
    theirs = loadSuite(side.appsDir).contenders;
  } catch {
    return { changed: selected, unchanged: [] };
  }
  const same = (c: Contender) => {
    const t = theirs.find((x) => x.name === c.name);
    return !!t && inputsOf(t) === inputsOf(c) && installConfig(t) === installConfig(c);
  };
  const unchanged = selected.filter(same).map((c) => c.name);
  return { changed: selected.filter((c) => !unchanged.includes(c.name)), unchanged };
}
