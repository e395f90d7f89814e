// How far two fresh launches of one app run apart, outside the harness: a private Redis from dump.rdb, two copies of
// node-raw-node-redis, and per launch a warmup then K window pairs of 2 s, each app alone in turn (the order
// alternating). Per window: req/s, and the main thread's CPU µs per request (schedstat, in ns). Prints the sd of a
// window pair's ln ratio, of a launch's mean ratio, and every launch's CPU per request, sorted (a slow mode shows as
// a second cluster). --prime N: N requests at one connection before the warmup at 50 (0: none); --warmup S: its
// seconds, each app's in turn.
//   bash scripts/with-tools.sh bun scripts/launch-noise.ts [--launches 20] [--windows 3] [--prime 500] [--warmup 1]
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mean } from '../packages/harness/src/stats/stats';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    launches: { type: 'string', default: '20' },
    windows: { type: 'string', default: '3' },
    prime: { type: 'string', default: '0' },
    warmup: { type: 'string', default: '1' },
  },
});
const [launches, windows, prime, warmupS] = [values.launches, values.windows, values.prime, values.warmup].map(
  Number,
) as [number, number, number, number];
const root = join(import.meta.dir, '..');
const appDir = join(root, 'apps/node');
if (!existsSync(join(appDir, 'dist/server.js')))
  execFileSync('bun', ['../../scripts/build-node-app.ts', 'src/server.ts'], { cwd: appDir, stdio: 'inherit' });
const dir = mkdtempSync(join(tmpdir(), 'launch-noise-'));
copyFileSync(join(root, 'dump.rdb'), join(dir, 'dump.rdb'));
const redis = spawn('valkey-server', ['--port', '6390', '--bind', '127.0.0.1', '--save', '', '--dir', dir], {
  stdio: 'ignore',
});
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const mainCpuNs = (pid: number) => Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ')[0]);
const oha = (port: number, load: string[]) =>
  JSON.parse(
    execFileSync(
      'oha',
      [`http://127.0.0.1:${port}/`, ...load, '-w', '--disable-compression', '--no-tui', '--output-format', 'json'],
      {
        maxBuffer: 1 << 26,
      },
    ).toString(),
  ).summary.requestsPerSec as number;
function window(pid: number, port: number) {
  const [cpu, t] = [mainCpuNs(pid), performance.now()];
  const rps = oha(port, ['-z', '2s', '-c', '50']);
  return { rps, cpuUs: (mainCpuNs(pid) - cpu) / 1e3 / (rps * ((performance.now() - t) / 1e3)) };
}

type Window = ReturnType<typeof window>;
const pairs: { launch: number; a: Window; b: Window }[] = [];
try {
  await sleep(1000);
  for (let l = 0; l < launches; l++) {
    const apps = [3101, 3102].map((port) => {
      const env = {
        ...process.env,
        PORT: String(port),
        REDIS_URL: 'redis://127.0.0.1:6390',
        REDIS_CLIENT: 'node-redis',
      };
      return { port, p: spawn('node', ['dist/server.js'], { cwd: appDir, env, stdio: 'ignore' }) };
    });
    await sleep(1500);
    for (const a of apps) if (prime > 0) oha(a.port, ['-n', String(prime), '-c', '1']);
    for (const a of apps) oha(a.port, ['-z', `${warmupS}s`, '-c', '50']);
    for (let w = 0; w < windows; w++) {
      const order = (l + w) % 2 ? [1, 0] : [0, 1];
      const got: Window[] = [];
      for (const i of order) got[i] = window(apps[i]!.p.pid!, apps[i]!.port);
      pairs.push({ launch: l, a: got[0]!, b: got[1]! });
    }
    for (const a of apps) a.p.kill('SIGKILL');
    await sleep(300);
  }
} finally {
  redis.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
}

const sd = (xs: number[]) => Math.sqrt(xs.reduce((s, x) => s + (x - mean(xs)) ** 2, 0) / (xs.length - 1));
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const byLaunch = (f: (p: (typeof pairs)[number]) => number) =>
  [...Array(launches).keys()].map((l) => mean(pairs.filter((p) => p.launch === l).map(f)));
const rps = (p: (typeof pairs)[number]) => Math.log(p.a.rps / p.b.rps);
const cpu = (p: (typeof pairs)[number]) => Math.log(p.b.cpuUs / p.a.cpuUs);
const [perPair, perLaunch] = [(f: typeof rps) => pct(sd(pairs.map(f))), (f: typeof rps) => pct(sd(byLaunch(f)))];
const line =
  `prime ${prime}, warmup ${warmupS} s: ${pairs.length} window pairs in ${launches} launches; ` +
  "sd of a pair's ln ratio: ";
const pair = `req/s ${perPair(rps)}, CPU/req ${perPair(cpu)}`;
console.log(`${line}${pair}; of a launch's mean: req/s ${perLaunch(rps)}, CPU/req ${perLaunch(cpu)}`);
const perApp = [...Array(launches).keys()].flatMap((l) =>
  (['a', 'b'] as const).map((s) => mean(pairs.filter((p) => p.launch === l).map((p) => p[s].cpuUs))),
);
console.log(
  `each launch's main-thread CPU µs per request, sorted: ${perApp
    .sort((x, y) => x - y)
    .map(Math.round)
    .join(' ')}`,
);
