// Which sides a run pairs (run/against.ts, run/own-app.ts), what it records of them (run/prepare.ts settingsFrom),
// and what a resume refuses before anything starts (prepare's first step): pure calls on folders made here.
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_SETTINGS } from '@bench/stream';
import { type AppFlags, appFlags } from '../../packages/harness/src/cli/app-flags';
import { parseCli } from '../../packages/harness/src/cli/args';
import { loadSuite } from '../../packages/harness/src/model/manifests';
import type { Results } from '../../packages/harness/src/model/results';
import {
  checkOut,
  installerOf,
  type OtherSide,
  otherSideOf,
  pairUp,
  recordedSide,
  selfSide,
} from '../../packages/harness/src/run/against';
import type { CliOptions } from '../../packages/harness/src/run/options';
import { firstAppSide, ownContender, ownPairing, probeOwnApp } from '../../packages/harness/src/run/own-app';
import { prepare, settingsFrom } from '../../packages/harness/src/run/prepare';
import { AppLauncher } from '../../packages/harness/src/run/launcher';
import { ROOT } from '../../packages/harness/src/system/paths';
import { appsRepo, git } from '../helpers/against';
import { CACHE } from '../../packages/harness/src/run/inputs';

const temps: string[] = [];
afterAll(() => {
  for (const t of temps) rmSync(t, { recursive: true, force: true });
});
const temp = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temps.push(dir);
  return dir;
};
/** A git repository of the two test apps, committed. */
const checkout = () => appsRepo(temp('bench-pairing-'));
const dirSide = (root: string): OtherSide => ({
  spec: root,
  kind: 'dir',
  commit: null,
  repo: null,
  worktree: null,
  appsDir: join(root, 'apps'),
});
const quiet = () => {};
const names = (cs: { name: string }[]) => cs.map((c) => c.name).sort();

describe('--against pairs the contenders that differ with their own other side', () => {
  const head = checkout();
  const chosen = loadSuite(join(head, 'apps')).contenders;
  const fake = chosen.filter((c) => c.app === 'fake').map((c) => c.name);
  const paced = chosen.filter((c) => c.app === 'paced').map((c) => c.name);
  const changed = checkout();
  writeFileSync(join(changed, 'apps/fake/src/server.ts'), `${readFileSync(join(head, 'apps/fake/src/server.ts'))}\n`);
  const opts = (side: OtherSide, more = {}) => ({ otherSide: side, handicap: null, pairUnchanged: false, ...more });

  test('one app changed: its contenders paired with their twins from the other side, the rest left out', () => {
    const p = pairUp(opts(dirSide(changed)), chosen, null, quiet);
    expect(names(p.measured)).toEqual([...fake].sort());
    expect(names(p.twins)).toEqual(fake.map((n) => `${n}@base`).sort());
    // Each twin is built and started from the other side's folder, not this checkout's.
    for (const t of p.twins) expect(t.appDir).toBe(join(changed, 'apps/fake'));
    expect(p.pickFamily).toBe(false);
    expect([[...p.inputs!.unchanged].sort(), p.inputs!.measured_unchanged]).toEqual([[...paced].sort(), false]);
    const all = pairUp(opts(dirSide(changed), { pairUnchanged: true }), chosen, null, quiet);
    expect(names(all.measured)).toEqual(names(chosen));
    expect(all.inputs?.measured_unchanged).toBe(true);
  });

  test('nothing changed: every contender paired (an A/A); one the other side lacks is changed, said why', () => {
    const same = pairUp(opts(dirSide(checkout())), chosen, null, quiet);
    expect(names(same.measured)).toEqual(names(chosen));
    expect([[...same.inputs!.unchanged].sort(), same.inputs!.measured_unchanged]).toEqual([names(chosen), true]);
    const lacking = checkout();
    rmSync(join(lacking, 'apps/fake'), { recursive: true });
    const p = pairUp(opts(dirSide(lacking)), chosen, null, quiet);
    expect(names(p.measured)).toEqual([...fake].sort());
    expect(p.twins).toEqual([]);
    expect(p.missing.map((m) => m.reason).sort()).toEqual(
      fake.map((n) => `--against ${lacking} has no contender ${n}`).sort(),
    );
  });

  test('--handicap pairs the handicapped contender with its plain self; a resume pairs those it paired', () => {
    const self = pairUp(opts(selfSide(join(head, 'apps')), { handicap: fake[0] }), chosen, null, quiet);
    expect([names(self.twins), self.pickFamily, self.measured.length]).toEqual([
      [`${fake[0]}@base`],
      true,
      chosen.length,
    ]);
    const resumed = pairUp(opts(dirSide(checkout())), chosen, [paced[0]!], quiet);
    expect(names(resumed.twins)).toEqual([`${paced[0]}@base`]);
    expect(resumed.measured).toHaveLength(chosen.length);
  });
});

describe('the other side', () => {
  const head = checkout();

  test('the other side: --handicap alone is this checkout; a resumed ref is the commit it recorded', () => {
    expect(otherSideOf({ resume: null, against: null, handicap: 'x' }, join(head, 'apps'))?.kind).toBe('self');
    expect(otherSideOf({ resume: null, against: null, handicap: null }, join(head, 'apps'))).toBeNull();
    const repo = checkout();
    const first = git(repo, 'rev-parse', 'HEAD').stdout.trim();
    writeFileSync(join(repo, 'apps/fake/later.txt'), 'later');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'two');
    const recorded = { spec: 'HEAD', kind: 'ref', commit: first, apps_dir: 'x', equal_pct: 2, pair: 'alternate' };
    const side = recordedSide(recorded as NonNullable<Parameters<typeof recordedSide>[0]>, join(repo, 'apps'));
    expect(side).toMatchObject({ spec: 'HEAD', kind: 'ref', commit: first });
  });

  test("a checkout installs exactly what its lockfile pins: npm's lockfile with npm ci", () => {
    const top = temp('bench-lock-');
    mkdirSync(join(top, 'apps'));
    writeFileSync(join(top, 'package-lock.json'), '{}');
    expect(installerOf(top, join(top, 'apps'))).toEqual({
      dir: top,
      lock: join(top, 'package-lock.json'),
      argv: ['npm', 'ci'],
    });
  });

  test('a checkout with dependencies and no lockfile (one git ignores) is refused in one line, naming the fix', () => {
    const wt = temp('bench-nolock-');
    writeFileSync(join(wt, '.git'), 'gitdir: elsewhere');
    const side: OtherSide = {
      spec: 'HEAD~1',
      kind: 'ref',
      commit: 'a'.repeat(40),
      repo: wt,
      worktree: wt,
      appsDir: wt,
    };
    writeFileSync(join(wt, 'package.json'), JSON.stringify({ name: 'my-app' }));
    expect(() => checkOut(side, quiet)).not.toThrow(); // nothing to install
    writeFileSync(join(wt, 'package.json'), JSON.stringify({ dependencies: { express: '5.1.0', redis: '5.8.2' } }));
    // Deno's own lockfile pins what it installs as it starts: nothing refused.
    writeFileSync(join(wt, 'deno.lock'), '{}');
    expect(() => checkOut(side, quiet)).not.toThrow();
    rmSync(join(wt, 'deno.lock'));
    expect(() => checkOut(side, quiet)).toThrow(
      `--against HEAD~1: commit aaaaaaaaaaaa has no lockfile (bun.lock, bun.lockb, package-lock.json, ` +
        'npm-shrinkwrap.json, pnpm-lock.yaml, yarn.lock) beside package.json, which lists 2 dependencies, so nothing ' +
        'pins what to install there: commit the lockfile (git add it; is it in .gitignore?) and give --against a ' +
        'commit with it',
    );
  });
});

describe('--app twice, and what a run records of its pair', () => {
  const two = appFlags({ app: ['node v1.js', 'node v2.js'] }) as AppFlags;
  const apps = two.ownApps.map((a) => ownContender(a, []));

  test('the second is the head, measured against the first started by its own command', () => {
    const p = ownPairing(firstAppSide(two.ownApps[0]!), apps, quiet);
    expect(names(p.measured)).toEqual(['your-app-2']);
    expect(p.twins.map((t) => [t.name, t.start, t.own?.command])).toEqual([
      ['your-app-2@base', ['node', 'v1.js'], 'node v1.js'],
    ]);
    expect(p.pickFamily).toBe(false);
  });

  test('an app started by a package manager runs on node; bunx on bun', () => {
    const runtime = (command: string) =>
      ownContender({ ...two.ownApps[0]!, command, argv: command.split(' ') }, []).runtime;
    expect(['npm start', 'npx serve', 'pnpm start', 'yarn start', 'bunx x', 'deno run a.ts'].map(runtime)).toEqual([
      'node',
      'node',
      'node',
      'node',
      'bun',
      'deno',
    ]);
  });

  test("the settings record the pair's side, its bound and design; the seed profile its own method", () => {
    const side: OtherSide = { ...dirSide('/x'), spec: 'HEAD~1', kind: 'ref', commit: 'c'.repeat(40) };
    const opts = parseCli(['--against', 'HEAD~1', '--pair', 'duet', '--equal', '3'], []);
    expect(settingsFrom({ ...opts, otherSide: side }).against).toEqual({
      spec: 'HEAD~1',
      kind: 'ref',
      commit: 'c'.repeat(40),
      apps_dir: '/x/apps',
      equal_pct: 3,
      pair: 'duet',
    });
    const one = { name: 'a', runtime: 'a', framework: 'b', client: 'c', variant: null, suites: ['seed' as const] };
    const seed = settingsFrom(parseCli(['--profile', 'seed'], [{ ...one, settings: { ...DEFAULT_SETTINGS } }]));
    expect([seed.max_steal_pct, seed.headline, seed.compression, seed.ci_level]).toEqual([
      100,
      'third',
      'oha default',
      0.95,
    ]);
    const plain = settingsFrom(parseCli(['--max-steal', '20'], []));
    expect([plain.max_steal_pct, plain.headline, plain.compression, plain.ci_level]).toEqual([
      20,
      'median',
      false,
      0.95,
    ]);
  });
});

describe('--resume refuses before anything starts', () => {
  const fixture = (): Results =>
    JSON.parse(readFileSync(join(ROOT, 'tests/fixtures/results/results.json'), 'utf8')) as Results;
  const runDir = (change: (r: Results) => void) => {
    const dir = temp('bench-resume-');
    const r = fixture();
    change(r);
    writeFileSync(join(dir, 'results.json'), JSON.stringify(r));
    return dir;
  };
  const given = (cmds: string[]) => (cmds.length ? (appFlags({ app: cmds }) as AppFlags).ownApps : []);
  const resume = (dir: string, cmds: string[] = []) =>
    prepare({ resume: dir, ownApps: given(cmds) } as unknown as CliOptions, [], [], {} as never);
  // A live run cannot be resumed: the step after the --app checks, so that nothing past them starts here.
  const live = (r: Results) => {
    r.complete = false;
    r.settings.workload = 'live';
  };

  test('a complete run; an --app to a run that measured none; another command than the one it recorded', async () => {
    const complete = runDir((r) => (r.complete = true));
    await expect(resume(complete)).rejects.toThrow(`${complete} holds a complete run; nothing to resume`);
    const none = runDir(live);
    await expect(resume(none, ['node s.js'])).rejects.toThrow(
      `${none} measured no app of yours: give --resume without --app`,
    );
    const app = { name: 'your-app', command: 'node s.js', path: '/', body: 'first' as const };
    const mine = runDir((r) => {
      live(r);
      r.settings.apps = [app];
    });
    await expect(resume(mine, ['node other.js'])).rejects.toThrow(
      / measured --app "node s\.js", not --app "node other\.js"/,
    );
    // A folder the run did not record (an older run) is any folder: it goes on to the next check.
    await expect(resume(mine, ['node s.js'])).rejects.toThrow(
      `${mine} is a --workload live run: its stream changed since`,
    );
  });
});

describe('--app is probed before anything is measured', () => {
  /** A fake launcher whose app is a server here answering `status` with `bodies` in turn; stopped when asked. */
  const probe = async (status: number, bodies: string[], body: 'first' | 'any') => {
    let n = 0;
    const server = Bun.serve({ port: 0, fetch: () => new Response(bodies[n++ % bodies.length], { status }) });
    const stopped: string[] = [];
    const launcher = {
      start: async (r: { name: string }, key: string) => ({ key, r, pid: 0, url: server.url.href, launchS: 0 }),
      stop: async (key: string) => void stopped.push(key),
    };
    const spec = (appFlags({ app: 'node s.js', body }) as AppFlags).ownApps[0]!;
    const c = ownContender(spec, []);
    try {
      await probeOwnApp(launcher as never, { name: c.name } as never, c);
      return { golden: c.own!.golden, stopped };
    } catch (e) {
      return { error: (e as Error).message, stopped };
    } finally {
      server.stop(true);
    }
  };

  test('a route not answering 200 is refused; a changing body refused unless --body any; the first kept', async () => {
    expect(await probe(404, ['no'], 'first')).toEqual({
      error: '--app: / answered 404, not 200; give the route it serves with --path',
      stopped: ['your-app#probe'],
    });
    expect((await probe(200, ['ab1', 'ab2'], 'first')).error).toStartWith(
      '--app: the body of / changed between two requests at byte 2; use --body any',
    );
    expect(await probe(200, ['ab1', 'ab2'], 'any')).toEqual({ golden: undefined, stopped: ['your-app#probe'] });
    expect(await probe(200, ['same'], 'first')).toEqual({ golden: 'same', stopped: ['your-app#probe'] });
  });

  test("a commit's checkout that does not start is said to hold only what git tracks", async () => {
    const failed = { start: async () => ({ kind: 'failed', reason: 'start: exited (code 1)', output: ['no dist/'] }) };
    const spec = (appFlags({ app: 'node dist/s.js' }) as AppFlags).ownApps[0]!;
    const twin = { ...ownContender(spec, []), appDir: join(CACHE, 'against', 'my-app-0123456789ab') };
    await expect(probeOwnApp(failed as never, { name: 'your-app@base' } as never, twin)).rejects.toThrow(
      '--app "node dist/s.js" did not start: exited (code 1) (last output: no dist/); your-app@base runs in a ' +
        `checkout of the commit (${twin.appDir}), which holds only what git tracks: a file git ignores (a build ` +
        'output, a .env) is not there',
    );
    // The folder as it is: no word of a checkout.
    await expect(probeOwnApp(failed as never, { name: 'your-app' } as never, ownContender(spec, []))).rejects.toThrow(
      /^--app "node dist\/s\.js" did not start: exited \(code 1\) \(last output: no dist\/\)$/,
    );
  });
});

describe("an --app is verified against its own body, not the suite's", () => {
  /** The launcher's gate on a server here answering `served`, for an --app held to `body` (first: `mine`). */
  const verify = async (served: string, body: 'first' | 'any') => {
    const server = Bun.serve({ port: 0, fetch: () => new Response(served) });
    const c = ownContender({ ...(appFlags({ app: 'node s.js', body }) as AppFlags).ownApps[0]! }, []);
    if (body === 'first') c.own!.golden = 'mine';
    const rig = { byName: new Map([[c.name, c]]), golden: 'the suite body', ctx: { redis: null }, servers: {} };
    const settings = { workload: 'xrange', start_timeout_s: 30, placement: {} };
    try {
      return await new AppLauncher(rig as never, settings as never).verify({
        r: { name: c.name },
        url: server.url.href,
      } as never);
    } finally {
      server.stop(true);
    }
  };

  test('its first response byte for byte; with --body any, any non-empty body', async () => {
    expect(await verify('mine', 'first')).toEqual({ ok: true, bytes: 4 });
    expect((await verify('mind', 'first')).ok).toBe(false);
    expect(await verify('anything', 'any')).toEqual({ ok: true, bytes: 8 });
  });
});
