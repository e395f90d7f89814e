// docs/your-app.md's "Your app as it is, with its own body", followed as written: its my-app.mjs (an Express route
// with a JSON shape of its own) written into the checkout's root, its three shell lines run from a newcomer's shell
// with free ports and the shortest settings. The run measures the app against its first response and proves one
// XRANGE per response; a --body FILE that is not what the app answers is refused, and said why.
import { newcomerShell } from '../helpers/shell';
import { afterAll, describe, expect, test } from 'bun:test';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../packages/harness/src/system/net';
import { ROOT } from '../../packages/harness/src/system/paths';
import { stopTree } from '../helpers/stop';

const guide = readFileSync(join(ROOT, 'docs/your-app.md'), 'utf8');
const section = guide.split('## Your app as it is, with its own body: `--target --body`\n')[1]!.split(/\n## /)[0]!;
const app = /\*\*my-app\.mjs\*\*\n\n```js\n([\s\S]*?)```/.exec(section)![1]!;
const lines = /```sh\n([\s\S]*?)```/
  .exec(section)![1]!
  .split('\n')
  .map((l) => l.replace(/\s+#.*$/, '').trim())
  .filter(Boolean);
const SHORT = '--runs 1 --windows 1 --duration 1s';

const running: ChildProcess[] = [];
const shell = (line: string) => newcomerShell(line, running);
async function ended(child: ReturnType<typeof shell>, seconds: number): Promise<number | null> {
  for (let i = 0; i < seconds * 10 && child.exitCode === null; i++) await Bun.sleep(100);
  return child.exitCode;
}
async function answers(url: string, child: ReturnType<typeof shell>, seconds: number): Promise<void> {
  for (let i = 0; i < seconds * 4; i++) {
    if (child.exitCode !== null) throw new Error(`exited ${child.exitCode}: ${child.output().slice(-1500)}`);
    const ok = await fetch(url, { signal: AbortSignal.timeout(2000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await Bun.sleep(250);
  }
  throw new Error(`${url} did not answer in ${seconds} s: ${child.output().slice(-1500)}`);
}

const appFile = join(ROOT, 'my-app.mjs');
const out = mkdtempSync(join(tmpdir(), 'rsb-own-body-'));
afterAll(async () => {
  for (const c of running.reverse()) await stopTree(c);
  rmSync(appFile, { force: true });
  rmSync(out, { recursive: true, force: true });
});

describe('docs/your-app.md: an app as it is, with its own body', () => {
  test('measured against its first response, one XRANGE per response; another body refused', async () => {
    expect(lines.length).toBe(3);
    expect(existsSync(appFile)).toBe(false);
    writeFileSync(appFile, app);
    const [redisPort, appPort] = [await freePort(), await freePort()];
    const ports = (l: string) => l.replaceAll('6379', String(redisPort)).replaceAll('3000', String(appPort));
    const redis = shell(ports(lines[0]!));
    for (let i = 0; i < 240 && !redis.output().includes('Redis is up'); i++) await Bun.sleep(250);
    const server = shell(ports(lines[1]!));
    const url = `http://127.0.0.1:${appPort}/colors`;
    await answers(url, server, 120);
    const body = await (await fetch(url)).text();
    expect(JSON.parse(body).count).toBe(339);

    const run = shell(`${ports(lines[2]!).replace('--runs 3', SHORT)} --out ${out}`);
    const code = await ended(run, 300);
    if (code !== 0) console.error(run.output().slice(-2000));
    expect(code).toBe(0);
    const dir = join(out, readdirSync(out).find((d) => d !== 'latest')!);
    const r = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'));
    expect(r.target.body).toBe('first response');
    expect(r.data.body_bytes).toBe(Buffer.byteLength(body));
    const c = r.contenders[0];
    expect(c.name).toBe('my-app');
    expect(c.status).toBe('ok');
    expect(c.redis_calls_per_req).toBeCloseTo(1, 1);

    // A body file that is not what the app answers: refused before measuring, and the reason names the byte.
    const wrong = join(out, 'wrong.json');
    writeFileSync(wrong, body.replace('"count":339', '"count":340'));
    const refused = shell(
      `${ports(lines[2]!).replace('--runs 3', SHORT).replace('--body first', `--body ${wrong}`)} --out ${out}`,
    );
    expect(await ended(refused, 300)).not.toBe(0);
    expect(refused.output()).toContain("differs from the app's own body");
  }, 600_000);
});
