// --app: a user's own app, made a contender like any other (model/contenders.ts), so that the harness starts,
// verifies, measures (CPU per request, memory, req/s, latency) and decides it as it does the project's own; what
// differs is that it is held to its own body, and its Redis commands are reported by name, not gated.
import { stripVTControlCharacters } from 'node:util';
import { readFileSync, realpathSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { DEFAULT_SETTINGS } from '@bench/stream';
import { type Contender, OWN_APP } from '../model/contenders';
import type { OwnAppSpec } from './options';
import type { Launcher } from './launch';
import { differingAt, firstDifference } from '../measure/verify';
import type { ContenderResult } from '../model/results';
import { baseName } from '../model/questions';
import { checkOut, type OtherSide, type Pairing } from './against';
import { CACHE, git } from './inputs';

/** The runtime a command names: node, bun, deno, or a package manager that starts node by default. */
const RUNTIME_OF: Record<string, string> = {
  node: 'node',
  bun: 'bun',
  bunx: 'bun',
  deno: 'deno',
  npm: 'node',
  npx: 'node',
  pnpm: 'node',
  yarn: 'node',
};

/** --app cannot be measured as given (it does not start, answer 200, or keep one body): nothing was measured. */
export class OwnAppError extends Error {}

/** The contender --only names beside an --app when none is named: the usual choice. */
export const BESIDE_BY_DEFAULT = 'node-raw-node-redis';

/** The user's app as a contender: its command in its folder, its route, its own body. */
export function ownContender(spec: OwnAppSpec, names: string[]): Contender {
  if (names.includes(spec.name))
    throw new OwnAppError(`--app-name ${spec.name} is a contender of the suite; give your app another name`);
  // `env VAR=x node server.js` runs node: its runtime is the first word after env's assignments.
  const words = spec.argv[0] === 'env' ? spec.argv.slice(1).filter((w) => !w.includes('=')) : spec.argv;
  const exe = basename(words[0] ?? spec.argv[0]!);
  return {
    name: spec.name,
    app: OWN_APP,
    appDir: spec.cwd,
    runtime: RUNTIME_OF[exe] ?? exe,
    framework: 'app',
    variant: null,
    client: 'own',
    settings: { ...DEFAULT_SETTINGS },
    tuned: [],
    suites: [],
    ceiling: null,
    path: spec.path,
    static: false,
    page: false,
    build: null,
    buildReadsData: false,
    buildOutputs: [],
    start: spec.argv,
    env: { HOST: '127.0.0.1' },
    chartGroup: null,
    own: {
      command: spec.command,
      body: spec.body,
      ...(spec.body.from === 'file' ? { golden: readFileSync(spec.body.path, 'utf8') } : {}),
    },
  };
}

/**
 * The line of a failed start's output that says what went wrong: an error's own line (Node's `Error: listen
 * EADDRINUSE …`, a `TypeError: …`, Deno's `error: Uncaught (in promise) Error: …`), not a stack frame (`at
 * emitErrorNT (node:net…)`) nor Node's closing version line; else the last line naming an error, else the last line.
 */
export function tellingLine(output: string[]): string | undefined {
  const lines = output
    .map((l) => stripVTControlCharacters(l)) // Deno colours its errors even into a pipe
    .filter((l) => l.trim() && !/^\s*at /.test(l))
    .reverse();
  return (
    lines.find((l) => /^\s*(\w*Error\b|error: Uncaught\b)/.test(l)) ?? lines.find((l) => /error/i.test(l)) ?? lines[0]
  );
}

/** --body FILE that the app does not serve: where they differ, a short excerpt of each, and the two fixes. */
export const fileDiffers = (path: string, file: string, diff: string) =>
  `--app: GET ${path}'s ${diff.replace('the golden body', `--body ${file}`)}; correct the file, ` +
  'or use --body first to hold the app to its first response';

/** One response of the probe, its body included, within the start's timeout (--start-timeout). */
async function fetchOnce(url: string, path: string, timeoutS: number): Promise<{ status: number; text: string }> {
  try {
    const res = await fetch(url, {
      headers: { 'accept-encoding': 'identity' },
      signal: AbortSignal.timeout(timeoutS * 1000),
    });
    return { status: res.status, text: await res.text() };
  } catch (e) {
    if ((e as Error).name !== 'TimeoutError') throw e;
    throw new OwnAppError(
      `--app: GET ${path} did not finish its response within ${timeoutS} s (a body never ended, or a route that ` +
        'waits): give a route that answers with --path, or raise --start-timeout if it is just slow',
    );
  }
}

/**
 * Before anything is measured: the app starts, its route answers 200, and (unless --body any) it answers the body of
 * --body FILE, or the same body twice, which then every check holds it to. A failure is one line naming the cause and
 * the fix.
 */
export async function probeOwnApp(launcher: Launcher, r: ContenderResult, c: Contender, timeoutS = 30): Promise<void> {
  const own = c.own!;
  const started = await launcher.start(r, `${r.name}#probe`);
  if ('kind' in started) {
    const last = tellingLine(started.output ?? []);
    const why = started.reason.replace(/^start: /, '');
    // A checkout of a commit holds only what git tracks: a build output, a .env or a lockfile git ignores is absent.
    const checkout = c.appDir.startsWith(join(CACHE, 'against'))
      ? `; ${r.name} runs in a checkout of the commit (${c.appDir}), which holds only what git tracks: a file git ` +
        'ignores (a build output, a .env) is not there'
      : '';
    throw new OwnAppError(
      `--app "${own.command}" did not start: ${why}${last ? ` (last output: ${last})` : ''}${checkout}`,
    );
  }
  try {
    const [one, two] = [await fetchOnce(started.url, c.path, timeoutS), await fetchOnce(started.url, c.path, timeoutS)];
    if (one.status !== 200)
      throw new OwnAppError(`--app: ${c.path} answered ${one.status}, not 200; give the route it serves with --path`);
    if (own.body.from === 'any') return;
    // An empty body is no response to hold the app to (--body any counts one as invalid too).
    if (!one.text && own.body.from === 'first')
      throw new OwnAppError(
        `--app: ${c.path} answered 200 with an empty body; give the route that serves one with --path`,
      );
    if (own.body.from === 'file') {
      const diff = firstDifference(one.text, own.golden!);
      if (diff) throw new OwnAppError(fileDiffers(c.path, own.body.path, diff));
      return;
    }
    const i = differingAt(two.text, one.text);
    if (i >= 0)
      throw new OwnAppError(
        `--app: the body of ${c.path} changed between two requests at byte ${Buffer.byteLength(one.text.slice(0, i))}` +
          '; use --body any to accept a changing body (the status checked only, any non-empty body)',
      );
    own.golden = one.text;
  } finally {
    await launcher.stop(started.key);
  }
}

/**
 * --app with --against REF: REF of the git repository that holds the app's folder, checked out into a worktree under
 * the cache, where the same command starts the app's other version. Only names are checked here.
 */
export function ownSide(spec: string, cwd: string): OtherSide {
  const top = git(cwd, ['rev-parse', '--show-toplevel']);
  if (top.status !== 0)
    throw new OwnAppError(
      `--against ${spec}: ${cwd} is not in a git repository; commit your app to git, ` +
        'or give its other version as a second --app',
    );
  const repo = top.stdout.trim();
  const rev = git(repo, ['rev-parse', '--verify', '--quiet', `${spec}^{commit}`]);
  if (rev.status !== 0)
    throw new OwnAppError(`--against ${spec}: no such commit in ${repo}; name one from git log --oneline there`);
  const commit = rev.stdout.trim();
  const worktree = join(CACHE, 'against', `${basename(repo)}-${commit.slice(0, 12)}`);
  // git names the repository by its real path: the folder's place in it, through any symlink (macOS's /tmp).
  return { spec, kind: 'ref', commit, repo, worktree, appsDir: join(worktree, relative(repo, realpathSync(cwd))) };
}

/** --app twice: the first is the second's base, started by its own command in its folder. */
export const firstAppSide = (first: OwnAppSpec): OtherSide => ({
  spec: first.command,
  kind: 'app',
  commit: null,
  repo: null,
  worktree: null,
  appsDir: first.cwd,
});

/**
 * The app's other version as a twin (<name>@base), held to its own body: at a git ref, checked out and installed from
 * its own lockfile (npm, pnpm, yarn or bun) and started by the same command in the worktree's copy of the app's
 * folder; or the first of two --app, started by its own command (the second is the head). Only the app and its twin
 * are measured: a run of changes, decided as --against decides every pair.
 */
export function ownPairing(side: OtherSide, chosen: Contender[], log: (s: string) => void): Pairing {
  const apps = chosen.filter((c) => c.own);
  if (side.kind === 'app') {
    const base = apps.find((c) => c.own!.command === side.spec)!;
    const head = apps.find((c) => c !== base)!;
    log(`--app twice: ${head.name} is decided against ${base.name}, measured as ${baseName(head.name)}`);
    const twin = { ...base, name: baseName(head.name), own: { ...base.own! } };
    return pairingOf([head], [twin]);
  }
  const dirty = git(side.repo!, ['status', '--porcelain', '--', relative(side.repo!, realpathSync(apps[0]!.appDir))]);
  if (dirty.stdout.trim())
    log(`--against ${side.spec}: the app's folder has uncommitted changes; head is the folder as it is, with them`);
  checkOut(side, log);
  const twins = apps.map((c) => ({ ...c, name: baseName(c.name), appDir: side.appsDir, own: { ...c.own! } }));
  return pairingOf(apps, twins);
}

const pairingOf = (measured: Contender[], twins: Contender[]): Pairing => ({
  measured,
  twins,
  missing: [],
  pickFamily: false,
  inputs: { unchanged: [], measured_unchanged: false },
});
