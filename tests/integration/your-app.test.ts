// docs/your-app.md, followed as written, in a copy of this checkout (its files as they are, not
// results/): the guide's shell lines run through bash from a newcomer's shell, its three files
// written as shown, its bench command with the shortest settings, to a valid result; then its
// REDIS_URL lines against the Redis `npm run restore` starts, and the refusal of a cluster node.
// The copy lives in the temporary folder and goes in a finally; copies a crash left behind are
// removed at the start.
import { newcomerEnv } from '../helpers/shell';
import { afterAll, describe, expect, test } from 'bun:test';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ROOT } from '../../packages/harness/src/system/paths';
import { freePort } from '../../packages/harness/src/system/net';
import { stopTree as stop } from '../helpers/stop';

const PREFIX = 'rsb-your-app-';
const SHORT = '--runs 1 --windows 1 --duration 1s --max-steal 100';
/** The guide's bench line made short: its --budget bounds --runs auto, so it goes with the fixed --runs 1. */
const short = (line: string) => `${line.replace(/ --budget \S+/, '')} ${SHORT}`;
const guide = readFileSync(join(ROOT, 'docs/your-app.md'), 'utf8');
const section = (title: string) => guide.split(`## ${title}\n`)[1]?.split(/\n## /)[0] ?? '';
/** The lines of a section's sh blocks, comments off. */
const shLines = (text: string) =>
  [...text.matchAll(/```sh\n([\s\S]*?)```/g)].flatMap((m) =>
    m[1]!
      .split('\n')
      .map((l) => l.replace(/\s+#.*$/, '').trim())
      .filter(Boolean),
  );
/** The files the guide shows whole: a bold path, then its block. */
const files = [...guide.matchAll(/\*\*(apps\/myfw\/[^*]+)\*\*\n\n```\w+\n([\s\S]*?)```\n/g)].map((m) => ({
  path: m[1]!,
  text: m[2]!,
}));
/** A backticked line of the guide that starts with `start`, its wrapping undone. */
const quoted = (start: string) => {
  const flat = guide.replace(/\s*\n\s*/g, ' ');
  return new RegExp(`\`(${start.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[^\`]*)\``).exec(flat)?.[1];
};

// Copies a crash left behind (over an hour old: never a concurrent run's).
for (const name of readdirSync(tmpdir()).filter((n) => n.startsWith(PREFIX))) {
  const path = join(tmpdir(), name);
  if (Date.now() - statSync(path).mtimeMs > 3_600_000) rmSync(path, { recursive: true, force: true });
}

/** A newcomer's shell: no tool from the project's cache on PATH (with-tools.sh brings them), git able to commit. */
const env = {
  ...newcomerEnv(),
  BENCH_APPS_DIR: '',
  GIT_AUTHOR_NAME: 't',
  GIT_AUTHOR_EMAIL: 't@t',
  GIT_COMMITTER_NAME: 't',
  GIT_COMMITTER_EMAIL: 't@t',
};

const running: ChildProcess[] = [];
const copies: string[] = [];

/** One line through bash in the copy; its output, exit status, and how long it took. */
function sh(cwd: string, line: string, timeoutMs = 300_000) {
  const t0 = Date.now();
  const r = spawnSync('bash', ['-c', line], { cwd, env, encoding: 'utf8', timeout: timeoutMs });
  return { code: r.status, out: `${r.stdout ?? ''}${r.stderr ?? ''}`, s: (Date.now() - t0) / 1000 };
}

/** A line that keeps running (a Redis), in its own process group, its output kept. */
function background(cwd: string, line: string): ChildProcess & { output: () => string } {
  const child = spawn('bash', ['-c', line], { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (b) => (out += b));
  child.stderr!.on('data', (b) => (out += b));
  running.push(child);
  return Object.assign(child, { output: () => out });
}

/** This checkout's files as they are (tracked and new, not ignored), results and screenshots left out. */
function copyCheckout(): string {
  const dir = mkdtempSync(join(tmpdir(), PREFIX));
  copies.push(dir);
  const list = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  const paths = list.stdout.split('\0').filter((p) => p && !/^(results|screenshots)\//.test(p));
  const cp = spawnSync('xargs', ['-0', 'cp', '--parents', '-t', dir], {
    cwd: ROOT,
    input: paths.filter((p) => statSync(join(ROOT, p), { throwIfNoEntry: false })?.isFile()).join('\0'),
  });
  if (cp.status !== 0) throw new Error(`copying the checkout: ${cp.stderr}`);
  return dir;
}

/** The one results.json a command wrote under the copy's results/. */
function lastResults(dir: string): any {
  const runs = readdirSync(join(dir, 'results'))
    .filter((d) => d !== 'latest')
    .sort();
  return JSON.parse(readFileSync(join(dir, 'results', runs.at(-1)!, 'results.json'), 'utf8'));
}

afterAll(async () => {
  for (const c of running) await stop(c);
  for (const dir of copies) rmSync(dir, { recursive: true, force: true });
});

describe('docs/your-app.md, followed in a copy of the checkout', () => {
  const app = shLines(section('Your own app'));
  const redis = shLines(section('Your own Redis: `REDIS_URL`'));
  const bench = app.find((l) => l.startsWith('npm run bench'))!;

  test('the guide has its copy, install and bench lines, and the three files', () => {
    expect(app[0]).toStartWith('cp -r apps/node apps/myfw');
    expect(app).toContain('scripts/with-tools.sh bun install');
    expect(bench).toContain('--only node-myfw-node-redis,node-raw-node-redis');
    expect(files.map((f) => f.path).sort()).toEqual([
      'apps/myfw/bench.json',
      'apps/myfw/package.json',
      'apps/myfw/src/server.ts',
    ]);
    expect(redis[0]).toStartWith('npm run restore -- --port 6379');
    expect(redis[1]).toStartWith('REDIS_URL=redis://127.0.0.1:6379 npm run bench');
  });

  test('a tiny app, copied, installed, measured against its raw server: both ok; then on your own Redis', async () => {
    const dir = copyCheckout();
    expect(sh(dir, 'git init -q && git add -A && git commit -qm checkout').code).toBe(0);
    expect(sh(dir, app[0]!).code).toBe(0);
    for (const f of files) {
      mkdirSync(dirname(join(dir, f.path)), { recursive: true });
      writeFileSync(join(dir, f.path), f.text);
    }
    // Before the install: setup stops, with the guide's lines.
    const frozen = sh(dir, 'npm run bench -- --list');
    expect(frozen.code).not.toBe(0);
    expect(frozen.out).toContain(quoted('error: lockfile had changes')!);
    expect(frozen.out).toContain(quoted('setup: bun install --frozen-lockfile failed')!);
    for (const line of app.slice(1, app.indexOf(bench))) {
      const r = sh(dir, line);
      expect(r.code, `${line}\n${r.out}`).toBe(0);
    }
    expect(sh(dir, 'git status --porcelain').out.trim()).toBe('');
    // A pattern picks within the suite only.
    const pattern = sh(dir, "npm run bench -- --only 'node-myfw-*'");
    expect(pattern.code).toBe(2);
    expect(pattern.out).toContain(quoted('error: unknown contender node-myfw-*')!);

    const run = sh(dir, short(bench));
    expect(run.code, run.out).toBe(0);
    const json = lastResults(dir);
    expect(json.contenders.map((c: any) => [c.name, c.status]).sort()).toEqual([
      ['node-myfw-node-redis', 'ok'],
      ['node-raw-node-redis', 'ok'],
    ]);
    expect(json.family.comparisons.map((c: any) => c.id)).toEqual(['node-myfw-node-redis vs node-raw-node-redis']);
    console.log(`the guide's bench line, ${SHORT}: ${run.s.toFixed(0)} s`);

    // Your own Redis: the guide's restore line on a free port, then its bench line against it.
    const port = String(await freePort());
    const restore = background(dir, redis[0]!.replaceAll('6379', port));
    for (let i = 0; i < 600 && !/Press Ctrl-C/.test(restore.output()); i++) await Bun.sleep(100);
    expect(restore.output()).toContain('Press Ctrl-C');
    const own = sh(dir, short(redis[1]!.replaceAll('6379', port)));
    expect(own.code, own.out).toBe(0);
    const ownJson = lastResults(dir);
    expect(ownJson.data.redis_url).toBe(`redis://127.0.0.1:${port}`);
    expect(ownJson.contenders.map((c: any) => c.status)).toEqual(['ok', 'ok']);
    await stop(restore);

    // A cluster of your own: refused in the guide's line, nothing measured.
    // A port free when asked can be taken by a neighbouring file before the node binds it: then another port.
    let [clusterPort, node] = ['', null as ReturnType<typeof background> | null];
    for (let attempt = 0; attempt < 3 && !/Ready to accept/.test(node?.output() ?? ''); attempt++) {
      if (node) await stop(node);
      clusterPort = String(await freePort());
      node = background(
        mkdtempSync(join(dir, 'cluster-')),
        `exec redis-server --port ${clusterPort} --cluster-enabled yes --save '' --appendonly no`,
      );
      for (let i = 0; i < 100 && node.exitCode === null && !/Ready to accept/.test(node.output()); i++)
        await Bun.sleep(100);
    }
    expect(node!.output(), 'the cluster node never said it was ready').toContain('Ready to accept');
    const refused = sh(dir, `REDIS_URL=redis://127.0.0.1:${clusterPort} npm run bench -- --only node-myfw-node-redis`);
    expect(refused.code).not.toBe(0);
    const want = quoted('error: REDIS_URL=redis://127.0.0.1:7000 is a node of a Redis Cluster')!;
    expect(refused.out.trim().split('\n').at(-1)).toBe(want.replace(':7000', `:${clusterPort}`));
    await stop(node!);
  }, 420_000);
});
