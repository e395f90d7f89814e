// An app started, refused and built (measure/apps.ts): a start that fails leaves nothing of the app running, the
// reason it gives is the right one, and a build that failed or lost its output is never taken for a cached one.
import { afterAll, describe, expect, test } from 'bun:test';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppError, buildApp, listeningPorts, startApp } from '../../packages/harness/src/measure/apps';
import type { Contender } from '../../packages/harness/src/model/contenders';
import { ROOT } from '../../packages/harness/src/system/paths';

/** The pids whose command line holds `mark`. */
function holding(mark: string): number[] {
  return readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p))
    .filter((p) => {
      try {
        return readFileSync(`/proc/${p}/cmdline`, 'utf8').includes(mark);
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** Starts `script` as an app (node -e, `mark` its last argument); after it is refused, what still runs of it. */
async function refused(script: string, timeoutMs: number): Promise<{ error: Error; left: number[] }> {
  const mark = `app-start-mark-${process.pid}-${Math.random().toString(36).slice(2)}`;
  const c = { name: 'refused', start: ['node', '-e', script, mark], appDir: ROOT, path: '/' } as unknown as Contender;
  try {
    const error = await startApp(c, { env: { MARK: mark }, timeoutMs }).then(
      () => new Error('it started'),
      (e: Error) => e,
    );
    return { error, left: holding(mark) };
  } finally {
    for (const pid of holding(mark)) process.kill(pid, 'SIGKILL');
  }
}

describe('a start that fails leaves nothing running', () => {
  test('an app that ignores PORT: refused, and stopped', async () => {
    const deaf = "require('http').createServer((q, s) => s.end('x')).listen(0, '127.0.0.1')";
    const { error, left } = await refused(deaf, 1000);
    expect(error.message).toMatch(/^not ready within 1s: it listens on :\d+, not PORT=\d+/);
    expect(left).toEqual([]);
  });

  test('an app that listens on PORT but never answers is told it is slow, not that it listens elsewhere', async () => {
    const silent = "require('net').createServer(() => {}).listen(+process.env.PORT, '127.0.0.1')";
    const { error, left } = await refused(silent, 500);
    expect(error.message).toBe('not ready within 0.5s (raise --start-timeout if it is just slow)');
    expect(left).toEqual([]);
  });

  test('an app that exits before answering: what it started is stopped with it', async () => {
    const parent =
      "require('child_process').spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)', process.env.MARK], " +
      "{ stdio: 'ignore' }); setTimeout(() => process.exit(3), 300)";
    const { error, left } = await refused(parent, 10_000);
    expect(error).toBeInstanceOf(AppError);
    expect(error.message).toStartWith('exited (code 3) before answering on http://127.0.0.1:');
    expect(left).toEqual([]);
  });
});

test("listeningPorts: a process's listening port, not the ports of its connections", async () => {
  const script =
    "const net = require('net'); const s = net.createServer(() => {}).listen(0, '127.0.0.1', () => {" +
    " const c = net.connect(s.address().port, '127.0.0.1', () => console.log(s.address().port)); });" +
    ' setTimeout(() => {}, 30000)';
  const child = spawn('node', ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const port = await new Promise<number>((resolve) => child.stdout!.once('data', (d) => resolve(Number(`${d}`))));
    expect(listeningPorts([child.pid!])).toEqual([port]);
  } finally {
    child.kill('SIGKILL');
  }
});

describe('a build (buildApp)', () => {
  const root = mkdtempSync(join(tmpdir(), 'bench-app-start-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const appDir = join(root, 'apps', 'tiny');
  mkdirSync(appDir, { recursive: true });
  writeFileSync(join(appDir, 'server.ts'), 'export {};\n');
  const script = (exit: number) =>
    `require('fs').mkdirSync('dist', { recursive: true }); require('fs').writeFileSync('dist/s.js', ''); ` +
    `process.exit(${exit})`;
  const tiny = (exit: number) =>
    ({
      name: 'tiny',
      app: 'tiny',
      appDir,
      build: ['node', '-e', script(exit)],
      buildReadsData: false,
      buildOutputs: ['dist'],
      start: ['node', 'dist/s.js'],
    }) as unknown as Contender;

  test('a failed build is refused by its exit code and tried again next time; lost output built again', async () => {
    await expect(buildApp(tiny(2), {}, 'data')).rejects.toThrow('build of apps/tiny failed (exit 2)');
    await expect(buildApp(tiny(2), {}, 'data')).rejects.toThrow(AppError);
    expect(await buildApp(tiny(0), {}, 'data')).toBe('built');
    expect(await buildApp(tiny(0), {}, 'data')).toBe('cached');
    rmSync(join(appDir, 'dist'), { recursive: true });
    expect(await buildApp(tiny(0), {}, 'data')).toBe('built');
    expect(existsSync(join(appDir, 'dist/s.js'))).toBe(true);
  });

  test('a build past its time limit is stopped and said to have run out of time, not to have failed', async () => {
    const slow = { ...tiny(0), name: 'slow', app: 'slow', build: ['sleep', '5'] } as Contender;
    const started = Date.now();
    await expect(buildApp(slow, {}, 'data', 300)).rejects.toThrow(
      'build of apps/slow did not finish within 0.3 s and was stopped; see its output below',
    );
    expect(Date.now() - started).toBeLessThan(4000);
  });

  test('a build another live process holds is waited for, then refused by name, never built beside it', async () => {
    const c = tiny(0);
    const folderKey = createHash('sha256').update(appDir).update(JSON.stringify(c.build)).digest('hex').slice(0, 12);
    const lock = join(ROOT, 'node_modules/.cache/stream-bench', `build-tiny-${folderKey}.stamp.lock`);
    writeFileSync(lock, String(process.pid));
    try {
      await expect(buildApp(c, {}, 'data', 200)).rejects.toThrow(`is still held by process ${process.pid}`);
    } finally {
      rmSync(lock, { force: true });
    }
  });
});
