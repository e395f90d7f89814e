// The adapter contract: every client, on every runtime it claims, under each of its settings and
// every workload, hands over the golden body through both transforms (plain and direct). One probe
// process per client and settings; each workload opens its own client in it.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLIENT_DEFS, CLIENTS, isRead, SETTINGS, STREAM_KEY, WORKLOADS, type SettingDef } from '@bench/stream';
import { removeClientLeftovers } from '../../packages/harness/src/measure/apps';
import { ROOT } from '../../packages/harness/src/system/paths';
import { goldenBody, startPrivateRedis, type RedisTarget } from '../../packages/harness/src/topology/redis';
import { DENO_RUN, RUNTIME_NAMES } from '../../packages/harness/src/model/runtimes';

const PROBE_DIR = join(ROOT, 'tests/fixtures/contract');
/** How each runtime runs the probe: Node runs the bundle scripts/build-node-app.ts makes, as the Node apps do. */
const PROBE: Record<string, string[]> = {
  node: ['node', 'dist/server.js'],
  node20: ['node20', 'dist/server.js'],
  bun: ['bun', 'src/contract.ts'],
  deno: [...DENO_RUN, 'src/contract.ts'],
};

let redis: RedisTarget;
/**
 * The golden body of each workload (xrange and xread: the whole stream; xrange-count: its first page; xrevrange-count:
 * its last page, newest first).
 */
const golden: Record<string, string> = {};

beforeAll(async () => {
  redis = await startPrivateRedis(join(ROOT, 'dump.rdb'));
  for (const w of WORKLOADS.filter(isRead)) golden[w] = goldenBody(redis, STREAM_KEY, w);
  const built = spawnSync('bun', [join(ROOT, 'scripts/build-node-app.ts'), 'src/contract.ts'], {
    cwd: PROBE_DIR,
    encoding: 'utf8',
  });
  if (built.status !== 0) throw new Error(`building the probe for Node failed: ${built.stderr}`);
});

afterAll(async () => {
  await redis?.stop();
});

/**
 * Each setting of the client flipped alone from the defaults (transform is checked on every run: the probe does both).
 */
const variants = (client: string): Record<string, string>[] => [
  {},
  ...(Object.values(SETTINGS) as SettingDef[])
    .filter((d) => d.env !== 'TRANSFORM' && d.clients?.includes(client))
    .flatMap((d) =>
      d.values
        .filter((v) => v !== d.default && (d.valueClients?.[v]?.includes(client) ?? true))
        .map((v) => ({ [d.env]: v })),
    ),
];

/** The workloads a variant reads: DECODE=bytes and raw read XRANGE's reply only (xread is refused at start). */
const workloadsOf = (settings: Record<string, string>) =>
  WORKLOADS.filter(isRead).filter((w) => !(settings.DECODE && w === 'xread'));

/**
 * Each workload's two bodies, from one process of the runtime. The probe writes them to a file: a run of CI once read
 * an empty stdout from a probe that had exited 0, so the bodies no longer pass through the captured pipe.
 */
function probe(runtime: string, env: Record<string, string>): Record<string, { direct: string; plain: string }> {
  const [cmd, ...args] = PROBE[runtime]!;
  const dir = mkdtempSync(join(tmpdir(), 'probe-'));
  const file = join(dir, 'out.json');
  try {
    const r = spawnSync(cmd!, args, {
      cwd: PROBE_DIR,
      env: { ...process.env, ...env, REDIS_URL: redis.url, NO_COLOR: '1', PROBE_OUT: file },
      encoding: 'utf8',
      timeout: 30_000,
    });
    removeClientLeftovers(r.pid);
    const why = `${r.error ?? ''} ${r.stderr?.slice(0, 2000) ?? ''}`.trim();
    if (r.status !== 0) throw new Error(`${runtime} probe exited ${r.status ?? r.signal}: ${why}`);
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      throw new Error(`${runtime} probe exited 0 without writing its bodies: ${why}`);
    }
    return JSON.parse(text);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('every adapter on every runtime it claims', () => {
  test('every runtime has a probe; a page is 100 entries of the whole stream, the first or the last reversed', () => {
    expect(Object.keys(PROBE)).toEqual(RUNTIME_NAMES);
    const all = JSON.parse(golden.xrange!).entries;
    expect(JSON.parse(golden['xrange-count']!).entries).toEqual(all.slice(0, 100));
    expect(JSON.parse(golden['xrevrange-count']!).entries).toEqual(all.slice(-100).reverse());
  });
  for (const runtime of RUNTIME_NAMES) {
    for (const client of CLIENTS) {
      const unsupported = (CLIENT_DEFS[client].unsupported as Record<string, string>)[runtime];
      if (unsupported) {
        test(`${client} on ${runtime} is declared unsupported (${unsupported}) and fails with a clear error`, () => {
          expect(() => probe(runtime, { REDIS_CLIENT: client, STREAM_KEY })).toThrow(/run this app on Bun/);
        }, 30_000);
        continue;
      }
      for (const settings of variants(client)) {
        const label =
          Object.entries(settings)
            .map(([k, v]) => `${k}=${v}`)
            .join(' ') || 'defaults';
        test(`${client} on ${runtime} (${label}): every workload, plain and direct, gives the golden body`, () => {
          const workloads = workloadsOf(settings);
          const out = probe(runtime, {
            ...settings,
            REDIS_CLIENT: client,
            PROBE_WORKLOADS: workloads.join(','),
            STREAM_KEY,
          });
          expect(Object.keys(out)).toEqual(workloads);
          for (const workload of workloads) {
            expect(out[workload]!.direct).toBe(golden[workload]!);
            expect(out[workload]!.plain).toBe(golden[workload]!);
          }
        }, 90_000);
      }
    }
  }
});
