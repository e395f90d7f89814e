import { describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CLIENTS, SETTINGS } from '@bench/stream';
import schema from '../../packages/harness/manifest.schema.json';
import { generate, ManifestError, matchesPattern, type AppManifest } from '../../packages/harness/src/model/contenders';
import { loadSuite, readManifest } from '../../packages/harness/src/model/manifests';
import { RUNTIME_NAMES } from '../../packages/harness/src/model/runtimes';

export const SEED_NAMES = [
  'bun-elysia-ioredis',
  'bun-elysia-node-redis',
  'bun-hono-node-redis',
  'bun-raw-node-redis',
  'bun-stric-node-redis',
  'node-fastify-node-redis',
  'node-next-page-dynamic-ioredis',
  'node-next-page-static-ioredis',
  'node-next-route-dynamic-ioredis',
  'node-next-route-dynamic-node-redis',
  'node-next-route-static-ioredis',
  'node-next-route-static-node-redis',
  'node-raw-ioredis',
  'node-raw-node-redis',
];

function manifestFile(content: unknown): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'manifest-')), 'myapp');
  mkdirSync(dir);
  writeFileSync(join(dir, 'bench.json'), typeof content === 'string' ? content : JSON.stringify(content));
  return join(dir, 'bench.json');
}

const base: AppManifest = {
  framework: 'demo',
  about: 'a test app',
  runtimes: { bun: { start: ['bun', 'src/server.ts'] } },
  clients: ['node-redis', 'ioredis'],
};

describe('manifest schema', () => {
  test("every bench.json is valid; the seed's fourteen keep their suite; the default adds what the issue names", () => {
    const { contenders, unsupported } = loadSuite();
    const inSuite = (suite: string) =>
      contenders
        .filter((c) => c.suites.includes(suite as never))
        .map((c) => c.name)
        .sort();
    expect(inSuite('seed')).toEqual(SEED_NAMES);
    const extra = inSuite('default').filter((n) => !SEED_NAMES.includes(n) && !n.endsWith('-precomputed'));
    expect(extra).toEqual([
      'bun-raw-bun-redis',
      'bun-raw-glide',
      'bun-raw-ioredis',
      'bun-raw-iovalkey',
      'deno-hono-node-redis',
      'deno-raw-glide',
      'deno-raw-ioredis',
      'deno-raw-iovalkey',
      'deno-raw-node-redis',
      'node-express-node-redis',
      'node-raw-glide',
      'node-raw-ioredis-handicap',
      'node-raw-iovalkey',
      'node-raw-node-redis-bytes',
      'node-raw-node-redis-rawreply',
    ]);
    // Every seed and default contender runs with every setting at its default (plain transform), but the ceilings,
    // the one handicap contender (the known cost every default run checks that it detects), and node-redis's two
    // decode twins on Node (what the read path costs, against their default twin).
    const tunedInSuites = contenders.filter(
      (x) => x.suites.some((s) => s === 'default' || s === 'seed') && !x.ceiling && x.tuned.length,
    );
    expect(tunedInSuites.map((c) => [c.name, c.tuned, c.suites])).toEqual([
      ['node-raw-node-redis-bytes', ['bytes'], ['matrix', 'default']],
      ['node-raw-node-redis-rawreply', ['rawreply'], ['matrix', 'default']],
      ['node-raw-ioredis-handicap', ['handicap'], ['matrix', 'default']],
    ]);
    expect(tunedInSuites[2]!.settings).toMatchObject({ handicap: 'on', transform: 'plain' });
    // The handicap has a twin of each node raw contender in the matrix, not of node20 (which varies no setting).
    expect(
      contenders
        .filter((c) => c.tuned.includes('handicap'))
        .map((c) => c.name)
        .sort(),
    ).toEqual([
      'node-raw-glide-handicap',
      'node-raw-ioredis-handicap',
      'node-raw-iovalkey-handicap',
      'node-raw-node-redis-handicap',
    ]);
    // The HTTP ceiling of every runtime × framework of the default suite is in it too.
    expect(inSuite('default').filter((n) => n.endsWith('-precomputed'))).toEqual([
      'bun-elysia-precomputed',
      'bun-hono-precomputed',
      'bun-raw-precomputed',
      'bun-stric-precomputed',
      'deno-hono-precomputed',
      'deno-raw-precomputed',
      'node-express-precomputed',
      'node-fastify-precomputed',
      'node-next-page-dynamic-precomputed',
      'node-next-route-dynamic-precomputed',
      'node-raw-precomputed',
    ]);
    // A cache is measured by --workload live only: never in the matrix; the live suite is each raw server with
    // node-redis and every cache.
    const cached = (c: (typeof contenders)[number]) => c.settings.cache !== 'none';
    // Likewise a write strategy other than the default: --workload upsert only.
    const written = (c: (typeof contenders)[number]) => c.settings.write !== 'lua';
    expect(contenders.every((c) => c.suites.includes('matrix') !== (cached(c) || written(c)))).toBe(true);
    expect(contenders.filter(cached).every((c) => c.suites.every((s) => s === 'live'))).toBe(true);
    expect(contenders.filter(written).every((c) => c.suites.every((s) => s === 'upsert'))).toBe(true);
    // The upsert suite: every raw server × client with lua and watch, one stack per runtime with function and the PING
    // floor, each framework with node-redis, and Next.js's route handler with both its clients.
    const raw = inSuite('upsert').filter((n) => n.includes('-raw-'));
    expect(raw.filter((n) => n.endsWith('-watch')).length).toBe(
      raw.filter((n) => !/-(watch|function|ping)$/.test(n)).length,
    );
    expect(inSuite('upsert').filter((n) => !n.includes('-raw-'))).toEqual([
      'bun-elysia-node-redis',
      'bun-hono-node-redis',
      'bun-stric-node-redis',
      'deno-hono-node-redis',
      'node-elysia-node-redis',
      'node-express-node-redis',
      'node-fastify-node-redis',
      'node-hono-node-redis',
      'node-next-route-dynamic-ioredis',
      'node-next-route-dynamic-node-redis',
    ]);
    expect(inSuite('upsert').filter((n) => /-(function|ping)$/.test(n))).toEqual([
      'bun-raw-bun-redis-function',
      'bun-raw-bun-redis-ping',
      'deno-raw-node-redis-function',
      'deno-raw-node-redis-ping',
      'node-raw-node-redis-function',
      'node-raw-node-redis-ping',
    ]);
    expect(inSuite('live').filter((n) => n.includes('-node-redis'))).toEqual(
      ['bun', 'deno', 'node'].flatMap((rt) =>
        ['', '-csc', '-tail', '-tail-body', '-ttl'].map((s) => `${rt}-raw-node-redis${s}`),
      ),
    );
    // csc is node-redis's own cache: no other client gets it.
    expect(contenders.filter((c) => c.settings.cache === 'csc').every((c) => c.client === 'node-redis')).toBe(true);
    // Combinations that cannot run are listed with their reason.
    expect(unsupported).toContainEqual({ name: 'node-hono-bun-redis', reason: 'bun-redis: built into Bun only' });
    const next = contenders.find((c) => c.name === 'node-next-route-dynamic-ioredis')!;
    expect(next).toMatchObject({
      path: '/route/dynamic/ioredis',
      chartGroup: 'next',
      env: { NEXT_TELEMETRY_DISABLED: '1' },
      buildOutputs: ['.next', 'next-env.d.ts'],
    });
  });

  test('the schema names the same runtimes, clients and settings as the code', () => {
    expect(schema.definitions.runtime.enum).toEqual(RUNTIME_NAMES);
    expect(schema.definitions.client.enum).toEqual(CLIENTS);
    // replicas is the harness's own (the cluster twins): no manifest lists it.
    expect(schema.definitions.settings.items.enum).toEqual(
      Object.entries(SETTINGS)
        .filter(([, d]) => (d as { manifest?: false }).manifest !== false)
        .map(([k]) => k),
    );
  });

  const bad: [string, unknown, RegExp][] = [
    [
      'a field of the wrong type',
      { ...base, runtimes: { bun: { start: 'bun src/server.ts' } } },
      /\/runtimes\/bun\/start must be array/,
    ],
    [
      'a missing field',
      { framework: 'demo', about: 'x', clients: ['ioredis'] },
      /\(top level\) must have required property 'runtimes'/,
    ],
    ['the old format', { ...base, contenders: [] }, /\(top level\) must NOT have additional properties "contenders"/],
    [
      'an unknown client',
      { ...base, clients: ['redix'] },
      /\/clients\/0 must be equal to one of the allowed values \(node-redis, ioredis, iovalkey, bun-redis, glide\)/,
    ],
    [
      'an unknown runtime',
      { ...base, runtimes: { nodejs: { start: ['node'] } } },
      /\/runtimes key "nodejs" must be equal to one of the allowed values \(node, node20, bun, deno\)/,
    ],
    [
      'an unknown setting',
      { ...base, settings: ['turbo'] },
      new RegExp(
        /\/settings\/0 must be equal to one of the allowed values \(transform, /.source +
          /decode, autopipeline, resp, timeout, handicap, cache, pool, workers, write\)/.source,
      ),
    ],
    [
      'a suite that is not one',
      { ...base, suites: { fast: [] } },
      /\/suites must NOT have additional properties "fast"/,
    ],
    [
      'a variant name with spaces',
      { ...base, variants: [{ name: 'page static' }] },
      /\/variants\/0\/name must match pattern/,
    ],
    ['not JSON at all', '{ "framework": ', /not valid JSON: .*; fix it or remove that app's folder$/],
  ];
  for (const [what, content, message] of bad) {
    test(`${what}: one error naming the file and the field`, () => {
      const file = manifestFile(content);
      expect(() => readManifest(file)).toThrow(ManifestError);
      expect(() => readManifest(file)).toThrow(message);
      expect(() => readManifest(file)).toThrow(file);
      // One error: ajv's "property name must be valid" beside the key's own error is left out.
      expect(() => readManifest(file)).not.toThrow(/property name/);
    });
  }
});

describe('contender generation', () => {
  test('runtime × variant × client, with {client} in paths and variant env over app env', () => {
    const m: AppManifest = {
      ...base,
      runtimes: {
        bun: { start: ['bun', 'x.ts'] },
        node: { build: ['bun', 'run', 'build'], start: ['node', 'dist/x.js'] },
      },
      env: { A: '1', B: '1' },
      variants: [
        { name: 'route', path: '/r/{client}', env: { B: '2' } },
        { name: 'page', path: '/p', page: true, clients: ['ioredis'] },
      ],
    };
    const { contenders, unsupported } = generate('demo', '/apps/demo', m);
    expect(unsupported).toEqual([]);
    expect(contenders.map((c) => c.name)).toEqual([
      'bun-demo-route-node-redis',
      'bun-demo-route-ioredis',
      'bun-demo-page-ioredis',
      'node-demo-route-node-redis',
      'node-demo-route-ioredis',
      'node-demo-page-ioredis',
      'bun-demo-route-precomputed',
      'bun-demo-page-precomputed',
      'node-demo-route-precomputed',
      'node-demo-page-precomputed',
    ]);
    const c = contenders[3]!;
    expect(c).toMatchObject({
      runtime: 'node',
      path: '/r/node-redis',
      build: ['bun', 'run', 'build'],
      start: ['node', 'dist/x.js'],
      env: { A: '1', B: '2' },
      page: false,
    });
    expect(contenders[2]!).toMatchObject({ path: '/p', page: true, build: null });
  });

  test('unsupported combinations are listed with their reason, never dropped in silence', () => {
    const m: AppManifest = {
      ...base,
      unsupported: [
        { runtime: 'node', reason: 'the framework is Bun-only' },
        { runtime: 'bun', client: 'ioredis', reason: 'crashes at start: some error' },
      ],
    };
    const { contenders, unsupported } = generate('demo', '/apps/demo', m);
    expect(contenders.map((c) => c.name)).toEqual(['bun-demo-node-redis', 'bun-demo-precomputed']);
    expect(unsupported).toEqual([
      { name: 'bun-demo-ioredis', reason: 'crashes at start: some error' },
      { name: 'node-demo-node-redis', reason: 'the framework is Bun-only' },
      { name: 'node-demo-ioredis', reason: 'the framework is Bun-only' },
    ]);
  });

  test('settings: defaults, then each listed one applying to the client flipped alone; a runtime adds its own', () => {
    const m: AppManifest = {
      ...base,
      clients: ['node-redis', 'ioredis', 'bun-redis'],
      runtimes: { bun: { start: ['bun', 'x.ts'] }, node: { start: ['node', 'x.js'], settings: [] } },
      settings: ['transform', 'autopipeline', 'resp', 'timeout'],
      suites: { default: ['bun-demo-*'], seed: ['bun-demo-ioredis'] },
    };
    const { contenders, unsupported } = generate('demo', '/apps/demo', m);
    expect(contenders.map((c) => c.name)).toEqual([
      'bun-demo-node-redis',
      'bun-demo-node-redis-direct',
      'bun-demo-node-redis-resp2',
      'bun-demo-node-redis-notimeout',
      'bun-demo-ioredis',
      'bun-demo-ioredis-direct',
      'bun-demo-ioredis-autopipeline',
      'bun-demo-bun-redis',
      'bun-demo-bun-redis-direct',
      'node-demo-node-redis',
      'node-demo-ioredis',
      'bun-demo-precomputed',
      'node-demo-precomputed',
    ]);
    expect(unsupported).toEqual([{ name: 'node-demo-bun-redis', reason: 'bun-redis: built into Bun only' }]);
    const byName = Object.fromEntries(contenders.map((c) => [c.name, c]));
    expect(byName['bun-demo-node-redis-resp2']).toMatchObject({
      tuned: ['resp2'],
      settings: { transform: 'plain', autopipeline: 'off', resp: '2', timeout: 'on' },
      suites: ['matrix'],
    });
    expect(byName['bun-demo-ioredis']).toMatchObject({ tuned: [], suites: ['matrix', 'default', 'seed'] });
    expect(byName['node-demo-ioredis']!.suites).toEqual(['matrix']);
    // One HTTP ceiling per runtime × framework: the first client reads the body once at start.
    expect(byName['bun-demo-precomputed']).toMatchObject({
      ceiling: 'http',
      client: 'node-redis',
      tuned: ['precomputed'],
      settings: { transform: 'precomputed' },
      suites: ['matrix', 'default'],
    });
    expect(byName['node-demo-precomputed']!.suites).toEqual(['matrix']);
  });

  test('a suite pattern picks default-settings contenders only; an exact name may pick a tuned one', () => {
    const m: AppManifest = {
      ...base,
      settings: ['transform', 'handicap'],
      suites: { default: ['bun-demo-*', 'bun-demo-ioredis-handicap'], seed: ['bun-demo-node-redis-direct'] },
    };
    const { contenders } = generate('demo', '/apps/demo', m);
    const inSuite = (suite: string) => contenders.filter((c) => c.suites.includes(suite as never)).map((c) => c.name);
    expect(inSuite('default')).toEqual([
      'bun-demo-node-redis',
      'bun-demo-ioredis',
      'bun-demo-ioredis-handicap',
      'bun-demo-precomputed',
    ]);
    expect(inSuite('seed')).toEqual(['bun-demo-node-redis-direct']);
    expect(contenders.filter((c) => c.tuned.length && !c.ceiling).map((c) => c.name)).toEqual([
      'bun-demo-node-redis-direct',
      'bun-demo-node-redis-handicap',
      'bun-demo-ioredis-direct',
      'bun-demo-ioredis-handicap',
    ]);
    // A pattern that matches only tuned names picks none of them, so it names nothing, even beside an exact name that
    // does.
    for (const entries of [['bun-demo-*-handicap'], ['bun-demo-ioredis-handicap', 'bun-demo-*-handicap']]) {
      expect(() => generate('demo', '/apps/demo', { ...m, suites: { default: entries } })).toThrow(
        'apps/demo/bench.json: /suites/default "bun-demo-*-handicap" ' +
          'names no contender this app generates with default settings',
      );
    }
  });

  test('an unsupported entry without a runtime blocks its client on every runtime, with its reason', () => {
    const m: AppManifest = {
      ...base,
      runtimes: { bun: { start: ['bun', 'x.ts'] }, node: { start: ['node', 'x.js'] } },
      unsupported: [{ client: 'ioredis', reason: 'no such client here' }],
    };
    const { contenders, unsupported } = generate('demo', '/apps/demo', m);
    expect(contenders.filter((c) => !c.ceiling).map((c) => c.name)).toEqual([
      'bun-demo-node-redis',
      'node-demo-node-redis',
    ]);
    expect(unsupported).toEqual([
      { name: 'bun-demo-ioredis', reason: 'no such client here' },
      { name: 'node-demo-ioredis', reason: 'no such client here' },
    ]);
  });

  test("a variant's settings, paths and build: its own settings over the runtime's, every {client}, data read", () => {
    const m: AppManifest = {
      ...base,
      clients: ['ioredis'],
      runtimes: { bun: { build: ['bun', 'run', 'build'], start: ['bun', 'x.ts'], settings: ['autopipeline'] } },
      variants: [
        { name: 'dyn', path: '/{client}/x/{client}', settings: ['transform'] },
        { name: 'st', static: true, settings: [] },
      ],
    };
    const { contenders } = generate('demo', '/apps/demo', m);
    expect(contenders.map((c) => c.name)).toEqual([
      'bun-demo-dyn-ioredis',
      'bun-demo-dyn-ioredis-direct',
      'bun-demo-st-ioredis',
      'bun-demo-dyn-precomputed',
    ]);
    expect(contenders[0]!.path).toBe('/ioredis/x/ioredis');
    // The app's one build renders its static variant from the stream: every contender's build reads the data.
    expect(contenders.every((c) => c.buildReadsData)).toBe(true);
    expect(generate('demo', '/apps/demo', { ...base }).contenders.some((c) => c.buildReadsData)).toBe(false);
  });

  test("a stack's HTTP ceiling joins the default suite when any of its clients is in it, not only the first", () => {
    const { contenders } = generate('demo', '/apps/demo', { ...base, suites: { default: ['bun-demo-ioredis'] } });
    expect(contenders.find((c) => c.name === 'bun-demo-precomputed')!.suites).toEqual(['matrix', 'default']);
    // '*' matches any run of characters, none included.
    expect(matchesPattern('bun-demo-ioredis*', 'bun-demo-ioredis')).toBe(true);
    expect(matchesPattern('bun-*-ioredis', 'bun-demo-ioredis')).toBe(true);
    expect(matchesPattern('bun-*', 'node-demo-ioredis')).toBe(false);
  });

  test('a suite pattern that names nothing the app generates is an error naming the file and the field', () => {
    expect(() => generate('demo', '/apps/demo', { ...base, suites: { default: ['bun-demo-valkey'] } })).toThrow(
      'apps/demo/bench.json: /suites/default "bun-demo-valkey" ' +
        'names no contender this app generates with default settings',
    );
  });

  test('two manifests that generate one name are an error', () => {
    const dir = mkdtempSync(join(tmpdir(), 'apps-'));
    for (const app of ['a', 'b']) {
      mkdirSync(join(dir, app));
      writeFileSync(join(dir, app, 'bench.json'), JSON.stringify(base));
    }
    expect(() => loadSuite(dir)).toThrow('two manifests both generate bun-demo-node-redis');
  });

  test("the apps are read in their names' order, whatever order the folder lists them in", () => {
    // The order fixes each question's members and so each comparison's sides ("a vs b"), which kept runs pool by.
    const apps = [...new Set(loadSuite().contenders.map((c) => c.app))];
    expect(apps.length).toBeGreaterThan(1);
    expect(apps).toEqual([...apps].sort());
  });

  test('a folder of the apps without a bench.json is no app: passed over', () => {
    const dir = mkdtempSync(join(tmpdir(), 'apps-'));
    for (const app of ['myapp', 'shared']) mkdirSync(join(dir, app));
    writeFileSync(join(dir, 'myapp', 'bench.json'), JSON.stringify(base));
    writeFileSync(join(dir, 'shared', 'README.md'), 'helpers');
    expect(loadSuite(dir).contenders.map((c) => c.name)).toEqual([
      'bun-demo-node-redis',
      'bun-demo-ioredis',
      'bun-demo-precomputed',
    ]);
    rmSync(dir, { recursive: true, force: true });
  });

  test("an app with npm's, pnpm's or yarn's lockfile is refused at the start, in one line with the fix", () => {
    for (const lock of ['package-lock.json', 'npm-shrinkwrap.json', 'pnpm-lock.yaml', 'yarn.lock']) {
      const dir = mkdtempSync(join(tmpdir(), 'apps-'));
      mkdirSync(join(dir, 'myapp'));
      writeFileSync(join(dir, 'myapp', 'bench.json'), JSON.stringify(base));
      expect(loadSuite(dir).contenders.map((c) => c.name)).toContain('bun-demo-node-redis');
      writeFileSync(join(dir, 'myapp', lock), '{}');
      let message = '';
      try {
        loadSuite(dir);
      } catch (e) {
        expect(e).toBeInstanceOf(ManifestError);
        message = (e as Error).message;
      }
      expect(message).toStartWith(`myapp/${lock}: an app in the apps folder is a workspace package`);
      expect(message).toContain('bun install');
      expect(message).toContain('--target');
      expect(message).not.toContain('\n');
    }
  });
});
