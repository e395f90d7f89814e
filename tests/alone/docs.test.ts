// The README's "Running one app by hand" block, and the hint `npm run restore` prints, run as a
// newcomer would type them: each line through bash (they are shell lines: variables, &&), with
// the project's cached tools taken off PATH, against the Redis the block's own restore line
// starts. Every app serves the canonical body, scripts/run-oha.sh gets only 200s, every command
// is bounded in time, and nothing is left running. Ports are the block's, swapped for free ones.
import { newcomerShell } from '../helpers/shell';
import { afterAll, describe, expect, test } from 'bun:test';
import type { ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { STREAM_KEY } from '@bench/stream';
import { ROOT } from '../../packages/harness/src/system/paths';
import { freePort } from '../../packages/harness/src/system/net';
import { stopTree as stop } from '../helpers/stop';
import { goldenBody, useExistingRedis } from '../../packages/harness/src/topology/redis';

/** The shell lines of the README section's sh block, each with the URL its comment names (an app that serves no /). */
export function readmeCommands(section = 'Running one app by hand'): { line: string; url: string | null }[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const body = readme.split(`## ${section}\n`)[1]?.split(/\n## /)[0] ?? '';
  const block = /```sh\n([\s\S]*?)```/.exec(body)?.[1] ?? '';
  return block.split('\n').flatMap((l) => {
    const line = l
      .replace(/\s+#.*$/, '')
      .replace(/^#.*$/, '')
      .trim();
    return line ? [{ line, url: /#.*(http:\/\/127\.0\.0\.1:3000\/\S*)/.exec(l)?.[1] ?? null }] : [];
  });
}

const running: ChildProcess[] = [];

/** One README line in a newcomer's shell, in its own process group, output kept for errors. */
const shell = (line: string) => newcomerShell(line, running);

async function until<T>(
  what: string,
  child: ReturnType<typeof shell>,
  seconds: number,
  probe: () => Promise<T | null>,
): Promise<T> {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`${what}: the command exited (${child.exitCode}):\n${child.output().slice(-2000)}`);
    const got = await probe().catch(() => null);
    if (got !== null) return got;
    await Bun.sleep(250);
  }
  throw new Error(`${what}: not ready after ${seconds} s:\n${child.output().slice(-2000)}`);
}

/** The output of a line that should end by itself, within `seconds`. */
async function finished(what: string, child: ReturnType<typeof shell>, seconds: number): Promise<string> {
  for (let i = 0; i < seconds * 10 && child.exitCode === null; i++) await Bun.sleep(100);
  if (child.exitCode !== 0)
    throw new Error(
      `${what}: exit ${child.exitCode ?? `still running after ${seconds} s`}:\n${child.output().slice(-2000)}`,
    );
  return child.output();
}

const body = async (url: string) => {
  const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
  return res.status === 200 ? await res.text() : null;
};

afterAll(async () => {
  for (const c of running) await stop(c);
});

describe('the README\'s "Running one app by hand", as typed', () => {
  const commands = readmeCommands();
  const lines = commands.map((c) => c.line);
  const restoreLine = lines.find((l) => l.startsWith('npm run restore'));
  const ohaLine = lines.find((l) => l.startsWith('scripts/run-oha.sh'));
  const appLines = lines.filter((l) => l !== restoreLine && l !== ohaLine);
  const urlOf = (line: string) => commands.find((c) => c.line === line)?.url ?? 'http://127.0.0.1:3000/';

  test('the block has a restore line, app lines for each runtime and an oha line', () => {
    expect(restoreLine).toContain('6379');
    expect(ohaLine).toContain('3000');
    for (const runtime of ['bun run apps/', 'start:node', 'deno run', 'apps/next'])
      expect(appLines.some((l) => l.includes(runtime))).toBe(true);
  });

  test("restore, then every app line and the hint's serve the canonical body; run-oha.sh gets 200s only", async () => {
    const [redisPort, appPort] = [await freePort(), await freePort()];
    const ports = (l: string) => l.replaceAll('6379', String(redisPort)).replaceAll('3000', String(appPort));
    const restore = shell(ports(restoreLine!));
    const hint = await until('npm run restore', restore, 120, async () =>
      /Press Ctrl-C/.test(restore.output()) ? restore.output() : null,
    );
    const golden = goldenBody(useExistingRedis(`redis://127.0.0.1:${redisPort}`), STREAM_KEY);
    const hinted = [/start app:\s+(.*)/, /load it:\s+(.*)/, /inspect:\s+(.*)/].map((re) => re.exec(hint)?.[1]?.trim());
    expect(hinted[0]).toBeDefined();
    expect(hinted[1]).toBeDefined();
    // The hint's inspect line: the stream's length, from the newcomer's shell.
    expect((await finished(hinted[2]!, shell(hinted[2]!), 20)).trim()).toBe('339');
    const loadLines = [ohaLine!, hinted[1]!].map(ports);
    for (const [i, typed] of [...appLines, hinted[0]!].entries()) {
      const [line, url] = [ports(typed), ports(urlOf(typed))];
      const app = shell(line);
      // Next builds first: up to a few minutes on 2 CPUs.
      const got = await until(line, app, 300, () => body(url));
      expect(got, line).toBe(golden);
      // The load lines once, against the first app: with a short run and oha's JSON instead of the 10 s text summary.
      if (i === 0) {
        for (const oha of loadLines) {
          const json = await finished(
            oha,
            shell(`${oha} -z 1s -c 8 --disable-compression --no-tui --output-format json`),
            120,
          );
          const codes = JSON.parse(json.slice(json.indexOf('{'))).statusCodeDistribution as Record<string, number>;
          expect(Object.keys(codes)).toEqual(['200']);
          expect(codes['200']!).toBeGreaterThan(0);
        }
      }
      expect(await stop(app), `${line} left processes behind`).toEqual([]);
      await until(`${line}: port ${appPort} freed`, restore, 10, async () =>
        (await body(url).catch(() => null)) === null ? true : null,
      );
    }
    expect(await stop(restore)).toEqual([]);
  }, 900_000);
});
