// --against: the other version of the apps, measured side by side with this checkout's in one run.
// A git ref is checked out into a worktree under the cache and installed from its own lockfile;
// a directory is another folder of apps (a user's own). Either way every selected contender gets
// a twin named <name>@base, built and started from the other side, and the harness of this
// checkout measures both.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import type { Contender, Unsupported } from '../model/contenders';
import { loadSuite } from '../model/manifests';
import { baseName } from '../model/questions';
import type { ChangeInputs, Settings } from '../model/results';
import { CACHE, git, inputsOf, installConfig } from './inputs';
import { readResults, resultsFile, runFolder } from '../model/results-file';

/** What --against names, resolved: where the other side's apps are, and the commit they come from. */
export interface OtherSide {
  /** As given on the command line (--app twice: the first --app's command). */
  spec: string;
  /** A git ref, a folder of apps, this checkout (--handicap), or the first of two --app (the second's base). */
  kind: 'ref' | 'dir' | 'self' | 'app';
  /** The commit of a ref (null for a directory). */
  commit: string | null;
  /** The git repository the ref was resolved in, and the worktree it is checked out into. */
  repo: string | null;
  worktree: string | null;
  appsDir: string;
}

export class AgainstError extends Error {}

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
  if (!Bun.which('git', { PATH: process.env.PATH ?? '' }))
    throw new AgainstError(
      `--against "${spec}": ${folder ? 'the folder holds no app, and ' : 'no such folder, and '}git is not installed ` +
        'to find it as a ref: install git (apt-get install git), or name a folder of apps',
    );
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
  if (a.kind === 'app')
    return { spec: a.spec, kind: 'app', commit: null, repo: null, worktree: null, appsDir: a.apps_dir };
  const side = resolveAgainst(a.kind === 'ref' ? a.commit! : a.apps_dir, appsDir);
  return { ...side, spec: a.spec };
}

/** The settings a run to resume recorded (undefined: its results cannot be read, which prepare then says). */
export function recordedSettings(resume: string): Settings | undefined {
  try {
    return readResults(resultsFile(runFolder(resume))).settings;
  } catch {
    return undefined;
  }
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
  if (o.resume) return recordedSide(recordedSettings(o.resume)?.against, appsDir);
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

/** What the other side gives a run's setup (prepare.ts), in one call. */
export interface Pairing {
  /** The selected contenders the run measures: all of them, or with --against only those whose inputs differ. */
  measured: Contender[];
  /** The other side's twins (<name>@base) the run measures beside them. */
  twins: Contender[];
  /** Twins the other side cannot make: listed with the reason. */
  missing: Unsupported[];
  /** Whether the run answers "what to pick" too: not with --against, which answers the changes only. */
  pickFamily: boolean;
  inputs?: ChangeInputs;
}

/**
 * The other side checked out (a ref's worktree, installed) and its twins (<name>@base): with --against, of every
 * selected contender whose inputs differ from the other side's (all of them when none differs, an A/A, or with
 * --pair-unchanged); with --handicap, of the handicapped one. A resumed run pairs the contenders it paired when it
 * started (`resumed`: their names), whatever changed since.
 */
export function pairUp(
  opts: { otherSide?: OtherSide | null; handicap: string | null; pairUnchanged: boolean },
  chosen: Contender[],
  resumed: string[] | null,
  log: (s: string) => void,
): Pairing {
  const side = opts.otherSide;
  if (!side) return { measured: chosen, twins: [], missing: [], pickFamily: true };
  checkOut(side, log);
  if (resumed)
    return {
      measured: chosen,
      ...baseTwins(
        side,
        chosen.filter((c) => resumed.includes(c.name)),
      ),
      pickFamily: true,
    };
  if (side.kind === 'self')
    return {
      measured: chosen,
      ...baseTwins(
        side,
        chosen.filter((c) => c.name === opts.handicap),
      ),
      pickFamily: true,
    };
  const { changed, unchanged } = changedOn(side, chosen);
  const all = opts.pairUnchanged || !changed.length;
  const measured = all ? chosen : changed;
  log(
    `--against ${side.spec}: ${changed.length} of ${chosen.length} selected contenders differ in their inputs` +
      (all
        ? unchanged.length
          ? `; all ${chosen.length} paired${changed.length ? ' (--pair-unchanged)' : ': an A/A'}`
          : ''
        : `; the ${unchanged.length} the same on both sides are not measured (--pair-unchanged measures them too)`),
  );
  return {
    measured,
    ...baseTwins(side, measured),
    pickFamily: false,
    inputs: { unchanged, measured_unchanged: all },
  };
}

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
  const how = installerOf(wt, side.appsDir);
  if (!how) {
    noLockfile(side, wt);
    return;
  }
  const stamp = join(how.dir, 'node_modules', '.bench-against-stamp');
  const want = createHash('sha256').update(readFileSync(how.lock)).digest('hex');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === want) return;
  const said = how.argv.join(' ');
  log(`--against ${side.spec}: installing its dependencies (${said} in ${how.dir})`);
  const install = spawnSync(how.argv[0]!, how.argv.slice(1), { cwd: how.dir, encoding: 'utf8' });
  if (install.status !== 0) {
    const why = install.error ? `${how.argv[0]} is not installed` : lastLine(install.stderr || install.stdout);
    throw new AgainstError(
      `--against ${side.spec}: ${said} failed in ${how.dir}: ${why}; ` +
        `that commit's ${basename(how.lock)} must match its package.json files`,
    );
  }
  writeFileSync(stamp, want);
}

/**
 * A checkout with no lockfile installs nothing: right for an app without dependencies; one whose package.json lists
 * some (a lockfile that git ignores) would start without them, or with whatever an unpinned install finds that day.
 */
function noLockfile(side: OtherSide, top: string): void {
  for (let dir = side.appsDir; ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      let pkg: { dependencies?: object; devDependencies?: object } = {};
      try {
        pkg = JSON.parse(readFileSync(file, 'utf8'));
      } catch {}
      const listed = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies }).length;
      // Deno installs what its own lockfile pins as it starts.
      if (!listed || existsSync(join(dir, 'deno.lock'))) return;
      const deps = `${listed} ${listed === 1 ? 'dependency' : 'dependencies'}`;
      throw new AgainstError(
        `--against ${side.spec}: commit ${side.commit!.slice(0, 12)} has no lockfile (${LOCKS}) beside ` +
          `${relative(top, file) || 'package.json'}, which lists ${deps}, so nothing pins what to ` +
          'install there: commit the lockfile (git add it; is it in .gitignore?) and give --against a commit with it',
      );
    }
    if (dir === top || relative(top, dir).startsWith('..') || dir === dirname(dir)) return;
  }
}

/** A lockfile, and the command that installs exactly what it pins. */
const INSTALLERS: [string, string[]][] = [
  ['bun.lock', ['bun', 'install', '--frozen-lockfile']],
  ['bun.lockb', ['bun', 'install', '--frozen-lockfile']],
  ['package-lock.json', ['npm', 'ci']],
  ['npm-shrinkwrap.json', ['npm', 'ci']],
  ['pnpm-lock.yaml', ['pnpm', 'install', '--frozen-lockfile']],
  ['yarn.lock', ['yarn', 'install', '--frozen-lockfile']],
];
const LOCKS = INSTALLERS.map(([lock]) => lock).join(', ');

/**
 * How a checkout installs: the first folder from the apps' own up to the worktree's top that holds a lockfile, with
 * its package manager's frozen install (none: nothing to install, as for an app without dependencies).
 */
export function installerOf(top: string, from: string): { dir: string; lock: string; argv: string[] } | null {
  for (let dir = from; ; dir = dirname(dir)) {
    const found = INSTALLERS.find(([lock]) => existsSync(join(dir, lock)));
    if (found) return { dir, lock: join(dir, found[0]), argv: found[1] };
    if (dir === top || relative(top, dir).startsWith('..') || dir === dirname(dir)) return null;
  }
}

/**
 * The other side's twin of each selected contender, named <name>@base, or why it has none (its
 * manifest does not generate that name). The twin keeps its own app folder, build and start.
 */
function baseTwins(side: OtherSide, selected: Contender[]): { twins: Contender[]; missing: Unsupported[] } {
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
