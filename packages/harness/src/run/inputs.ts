// A contender's inputs: what it is built and started from, hashed. Two sides with the same inputs run the same code
// (--against pairs only those that differ, against.ts changedOn), and a kept run is pooled only with runs of the same
// inputs (answers/across-runs.ts, publish/kept-runs.ts).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { SETTINGS, type SettingDef, type SettingName } from '@bench/stream';
import { CHECKOUT_INPUTS } from '../model/changes';
import type { Contender } from '../model/contenders';
import { loadSuite } from '../model/manifests';
import { namedFiles } from '../measure/apps';

export const CACHE = join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'redis-stream-bench');
export const git = (cwd: string, args: string[]) => spawnSync('git', ['-C', cwd, ...args], { encoding: 'utf8' });

/**
 * The files of packages/stream/src a setting's value runs beyond the core (a folder ends in /); "*": every value,
 * where the setting's workloads are measured. Kept here, not in packages/stream, so that listing them left the
 * package (and every kept run's package hash) as it was.
 */
export const STREAM_SOURCES: Record<string, Record<string, readonly string[]>> = {
  decode: { bytes: ['raw/transcode.ts', 'raw/transcode-wasm.ts', 'raw/transcode.wat'], raw: ['raw/'] },
  handicap: { on: ['handicap.ts'] },
  cache: { csc: ['cache.ts'], tail: ['cache.ts'], 'tail-body': ['cache.ts'], ttl: ['cache.ts'] },
  workers: { '2': ['workers.ts'] },
  write: { '*': ['writes/'] },
};

const under = (f: string, paths: readonly string[]) => paths.some((p) => (p.endsWith('/') ? f.startsWith(p) : f === p));

/** The relative imports of a TypeScript file, resolved against its folder (paths relative to packages/stream/src). */
function importsOf(src: string, file: string): string[] {
  let text: string;
  try {
    text = readFileSync(join(src, file), 'utf8');
  } catch {
    return [];
  }
  const dir = file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '';
  return [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map((m) =>
    relative(src, resolve(src, dir, m[1]!)),
  );
}

/** The files of packages/stream/src beyond the core that a contender's settings' values run (STREAM_SOURCES). */
function sourcesOf(c: Contender): string[] {
  return Object.entries(STREAM_SOURCES).flatMap(([name, byValue]) => {
    const value = (c.settings as Record<string, string>)[name]!;
    // A "*" source of a setting measured in some workloads only runs in their suites (a write strategy's code).
    const only = (SETTINGS[name as SettingName] as SettingDef | undefined)?.workloads;
    const every = only ? only.some((w) => (c.suites as readonly string[]).includes(w)) : true;
    return [...(byValue[value] ?? []), ...(every ? (byValue['*'] ?? []) : [])];
  });
}

/**
 * What a contender runs of packages/raw-reader (paths relative to it): the files of its src/ that stream's raw/ files
 * it runs are, by the same names (raw/transcode.ts is src/transcode.ts; raw/ is all of src/).
 */
const readerFilesOf = (c: Contender): string[] =>
  sourcesOf(c).flatMap((f) => (f.startsWith('raw/') ? [`src/${f.slice(4)}`] : []));

/**
 * What a contender runs of packages/stream (paths relative to its src/): the core (every file but the clients' adapters
 * and the files a setting's value runs), its client's adapter and what that imports, and the files its settings'
 * values run. `all`: the package's files.
 */
export function streamFilesOf(c: Contender, all: string[]): string[] {
  const claimed = Object.values(STREAM_SOURCES).flatMap((v) => Object.values(v).flat());
  const used = sourcesOf(c);
  const src = join(c.appDir, '..', '..', 'packages', 'stream', 'src');
  const adapter = new Set<string>();
  const visit = (f: string) => {
    if (adapter.has(f) || (under(f, claimed) && !under(f, used))) return;
    adapter.add(f);
    for (const g of importsOf(src, f)) if (g.startsWith('clients/')) visit(g);
  };
  visit(`clients/${c.client}.ts`);
  return all.filter((f) => {
    if (!f.startsWith('src/')) return true; // package.json and the like
    const rel = f.slice(4);
    if (rel.startsWith('clients/')) return adapter.has(rel);
    return !under(rel, claimed) || under(rel, used);
  });
}

/**
 * What a contender is built and started from, on one side: its app folder, what it runs of packages/stream
 * (streamFilesOf; `scheme` "package": all of it, the hash kept runs recorded before) and of packages/raw-reader (the
 * raw reader, which stream's raw/ files re-export: readerFilesOf), the root package.json, bun.lock (in "used": the
 * locked packages it installs, lockOf), and any file outside the app folder that its build or start names
 * (measure/apps.ts namedFiles: a build script). Files git ignores (build outputs,
 * node_modules) are left out. Two sides with the same inputs run the same code: pairing them is an A/A. This hash is a
 * kept run's identity for pooling (answers/across-runs.ts); bunfig.toml, which sets how bun installs, is compared
 * apart (changedOn) and is in the build key (measure/apps.ts buildApp).
 */
export function inputsOf(c: Contender, scheme: InputScheme = 'used'): string {
  const root = resolve(c.appDir, '..', '..');
  const [stream, reader, lock] = [join(root, 'packages', 'stream'), join(root, RAW_READER), join(root, 'bun.lock')];
  const paths = [c.appDir, ...CHECKOUT_INPUTS.hashed.map((p) => join(root, p)), ...namedFiles(c)];
  let files = filesUnder(root, paths);
  if (scheme === 'used') {
    const inStream = files.filter((f) => f.startsWith(`${stream}/`)).map((f) => relative(stream, f));
    const keep = new Set(streamFilesOf(c, inStream).map((f) => join(stream, f)));
    const runs = readerFilesOf(c);
    const inReader = (f: string) => under(relative(reader, f), runs);
    files = files.filter((f) =>
      f.startsWith(`${stream}/`) ? keep.has(f) : !f.startsWith(`${reader}/`) || inReader(f),
    );
  }
  const hash = createHash('sha256');
  for (const f of files) {
    hash.update(relative(root, f)).update('\0');
    const content = scheme === 'used' && f === lock ? lockOf(root, c) : contentOf(root, f);
    hash.update(existsSync(f) ? content : 'absent').update('\0');
  }
  return hash.digest('hex');
}

/** The raw reader's own package (packages/stream's raw/ files re-export it). */
const RAW_READER = join('packages', 'raw-reader');
/** What "used" inputs are: 2 since bun.lock counts by the packages a contender installs (lockOf). */
export const USED_SCHEME = 2;

/** lockOf's answers, by lockfile (its path, mtime and size) and app folder. */
const lockParts = new Map<string, string>();

/**
 * The part of bun.lock a contender installs: the locked registry packages its app, the workspace packages it depends
 * on and the root need, with theirs, by name (every version of a name, so never fewer than it installs). Workspace
 * entries are left out: their package.json files are inputs of their own. So a package or an app added to the
 * workspace, or another app's dependency, leaves the contenders that do not install it as they were.
 */
export function lockOf(root: string, c: Contender): string {
  // One app's contenders install the same packages: computed once per app folder and version of the lockfile.
  const file = join(root, 'bun.lock');
  const { mtimeMs, size } = statSync(file);
  const key = `${file}\0${mtimeMs}\0${size}\0${c.appDir}`;
  const known = lockParts.get(key);
  if (known !== undefined) return known;
  const lock = Bun.JSONC.parse(readFileSync(file, 'utf8')) as {
    lockfileVersion: number;
    workspaces: Record<string, Record<string, Record<string, string> | string>>;
    packages: Record<string, [string, ...unknown[]]>;
  };
  const depsOf = (o: unknown) =>
    ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies'].flatMap((k) =>
      Object.keys(((o ?? {}) as Record<string, Record<string, string>>)[k] ?? {}),
    );
  const nameOf = (ident: string) => ident.slice(0, ident.lastIndexOf('@'));
  const byName = new Map<string, string[]>();
  for (const [key, [ident]] of Object.entries(lock.packages))
    byName.set(nameOf(ident), [...(byName.get(nameOf(ident)) ?? []), key]);
  const [names, keys, queue] = [new Set<string>(), new Set<string>(), ['', relative(root, c.appDir)]];
  const want = (n: string) => {
    if (names.has(n)) return;
    names.add(n);
    queue.push(n);
  };
  while (queue.length) {
    const item = queue.shift()!;
    // A workspace (by its path, or the link its name is locked as) adds its dependencies; a package adds its own.
    const link = lock.packages[item]?.[0].match(/@workspace:(.*)$/)?.[1];
    const ws = lock.workspaces[link ?? item];
    if (ws || link !== undefined) for (const d of depsOf(ws)) want(d);
    else
      for (const key of byName.get(item) ?? []) {
        keys.add(key);
        for (const d of depsOf(lock.packages[key]![2])) want(d);
      }
  }
  const entries = [...keys].sort().map((k) => [k, lock.packages[k]]);
  const part = JSON.stringify({ lockfileVersion: lock.lockfileVersion, packages: entries });
  lockParts.set(key, part);
  return part;
}

/** "used": what each contender runs of packages/stream; "package": all of it (kept runs before the first). */
export type InputScheme = 'used' | 'package';

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
 * A runtime's version as its inputs hash it: Deno's names its build's target (`deno 2.9.6 (stable, release,
 * aarch64-unknown-linux-gnu)`), and the architecture is the machine's (model/kept.ts), not the code's. It is hashed as
 * the x86-64 build's string, which every kept run so far recorded, so runs of one version on every architecture, and
 * those kept runs, share their inputs.
 */
export const versionOnAnyArch = (version: string): string =>
  version.replace(/\b(?:aarch64|arm64|x86_64)-unknown-linux-gnu\b/, 'x86_64-unknown-linux-gnu');

/**
 * Each contender's inputs (inputsOf) with the version of the runtime it runs on, hashed: what a kept run records so
 * that runs of the same code can be pooled (answers/across-runs.ts).
 */
export function contenderInputs(
  cs: Contender[],
  runtimes: Record<string, string>,
  scheme: InputScheme = 'package',
): Record<string, string> {
  return Object.fromEntries(
    cs.map((c) => {
      const h = createHash('sha256')
        .update(inputsOf(c, scheme))
        .update(`\0${c.runtime} ${versionOnAnyArch(runtimes[c.runtime] ?? 'unknown')}`);
      return [c.name, h.digest('hex').slice(0, 16)];
    }),
  );
}

/**
 * The inputs (contenderInputs, in both schemes) of the named contenders as they were at `commit` of the repository
 * at `repo`, read from a worktree checked out for the purpose and removed after: for results recorded before runs
 * kept them. Null when the commit is not in the repository or its apps cannot be read.
 */
export function inputsAtCommit(
  repo: string,
  commit: string,
  names: string[],
  runtimes: Record<string, string>,
): { inputs: Record<string, string>; used: Record<string, string> } | null {
  if (git(repo, ['cat-file', '-e', `${commit}^{commit}`]).status !== 0) return null;
  const wt = join(CACHE, 'inputs', commit.slice(0, 12));
  rmSync(wt, { recursive: true, force: true });
  mkdirSync(join(CACHE, 'inputs'), { recursive: true });
  try {
    if (git(repo, ['worktree', 'add', '--force', '--detach', wt, commit]).status !== 0) return null;
    const suite = loadSuite(join(wt, 'apps')).contenders.filter((c) => names.includes(c.name));
    return { inputs: contenderInputs(suite, runtimes), used: contenderInputs(suite, runtimes, 'used') };
  } catch {
    return null;
  } finally {
    git(repo, ['worktree', 'remove', '--force', wt]);
    rmSync(wt, { recursive: true, force: true });
    git(repo, ['worktree', 'prune']);
  }
}

/** How many files an --app's folder may hold for each to be recorded by name (a resume then names what changed). */
export const SOURCE_FILES_NAMED = 500;

/**
 * An --app's folder as git lists it (tracked and untracked, not ignored: build outputs and node_modules aside), hashed
 * by name and content, and each file's own hash (16 hex digits) where there are at most SOURCE_FILES_NAMED of them;
 * null outside a git repository, where what a build writes cannot be told from a source.
 */
export function sourceFiles(dir: string): { sha256: string; files: Record<string, string> | null } | null {
  const listed = spawnSync('git', ['-C', dir, 'ls-files', '-co', '--exclude-standard', '-z', '--', '.'], {
    encoding: 'utf8',
    maxBuffer: 256 << 20,
  });
  // Outside git (or a listing git could not give): no files to hold a resume to; its body still is.
  if (listed.status !== 0) return null;
  const hash = createHash('sha256');
  const names = [...new Set(listed.stdout.split('\0').filter(Boolean))].sort();
  const named = names.length <= SOURCE_FILES_NAMED;
  // No prototype: a file named __proto__ or constructor is a name like any other.
  const files: Record<string, string> = Object.create(null);
  for (const name of names) {
    let content: Buffer | string;
    try {
      const f = join(dir, name);
      content = statSync(f).isFile() ? readFileSync(f) : 'not a file';
    } catch (e) {
      content = `unreadable: ${(e as NodeJS.ErrnoException).code ?? 'error'}`;
    }
    hash.update(name).update('\0').update(content).update('\0');
    if (named) files[name] = createHash('sha256').update(content).digest('hex').slice(0, 16);
  }
  return { sha256: hash.digest('hex'), files: named ? files : null };
}

/** What changed between two recordings of a folder's files, `most` named: "server.mjs (changed), a.log (new)". */
export function filesChanged(was: Record<string, string>, now: Record<string, string>, most = 3): string {
  const names = [...new Set([...Object.keys(was), ...Object.keys(now)])].sort();
  // Own keys only: a file named constructor is not Object.prototype's.
  const of = (r: Record<string, string>, n: string) => (Object.hasOwn(r, n) ? r[n] : undefined);
  const changed = names.flatMap((n) => {
    const [a, b] = [of(was, n), of(now, n)];
    return a === b ? [] : [`${n} (${a === undefined ? 'new' : b === undefined ? 'gone' : 'changed'})`];
  });
  return changed.length > most
    ? `${changed.slice(0, most).join(', ')} and ${changed.length - most} more`
    : changed.join(', ');
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
  const f = join(resolve(c.appDir, '..', '..'), CHECKOUT_INPUTS.install);
  return existsSync(f) ? readFileSync(f, 'utf8') : 'absent';
}
