import { describe, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate, loadSuite, ManifestError, readManifest, type AppManifest } from '../../packages/harness/src/contenders';

function manifestFile(content: unknown): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'manifest-')), 'myapp');
  mkdirSync(dir);
  writeFileSync(join(dir, 'bench.json'), typeof content === 'string' ? content : JSON.stringify(content));
  return join(dir, 'bench.json');
}

const base: AppManifest = { framework: 'demo', about: 'a test app', runtimes: { bun: { start: ['bun', 'src/server.ts'] } }, clients: ['node-redis', 'ioredis'] };

describe('manifest schema', () => {
  test("every app's bench.json is valid and generates the fourteen seed contenders", () => {
    const { contenders, unsupported } = loadSuite();
    expect(contenders).toHaveLength(14);
    expect(unsupported).toEqual([]);
    const next = contenders.find((c) => c.name === 'node-next-route-dynamic-ioredis')!;
    expect(next).toMatchObject({ path: '/route/dynamic/ioredis', chartGroup: 'next', env: { NEXT_TELEMETRY_DISABLED: '1' }, buildOutputs: ['.next', 'next-env.d.ts'] });
  });

  const bad: [string, unknown, RegExp][] = [
    ['a field of the wrong type', { ...base, runtimes: { bun: { start: 'bun src/server.ts' } } }, /\/runtimes\/bun\/start must be array/],
    ['a missing field', { framework: 'demo', about: 'x', clients: ['ioredis'] }, /\(top level\) must have required property 'runtimes'/],
    ['the old format', { ...base, contenders: [] }, /\(top level\) must NOT have additional properties "contenders"/],
    ['an unknown client', { ...base, clients: ['redix'] }, /\/clients\/0 must be equal to one of the allowed values \(node-redis, ioredis\)/],
    ['an unknown runtime', { ...base, runtimes: { nodejs: { start: ['node'] } } }, /\/runtimes key "nodejs" must be equal to one of the allowed values \(node, bun\)/],
    ['a variant name with spaces', { ...base, variants: [{ name: 'page static' }] }, /\/variants\/0\/name must match pattern/],
    ['not JSON at all', '{ "framework": ', /not valid JSON/],
  ];
  for (const [what, content, message] of bad) {
    test(`${what}: one error naming the file and the field`, () => {
      const file = manifestFile(content);
      expect(() => readManifest(file)).toThrow(ManifestError);
      expect(() => readManifest(file)).toThrow(message);
      expect(() => readManifest(file)).toThrow(file);
    });
  }
});

describe('contender generation', () => {
  test('runtime × variant × client, with {client} in paths and variant env over app env', () => {
    const m: AppManifest = {
      ...base,
      runtimes: { bun: { start: ['bun', 'x.ts'] }, node: { build: ['bun', 'run', 'build'], start: ['node', 'dist/x.js'] } },
      env: { A: '1', B: '1' },
      variants: [{ name: 'route', path: '/r/{client}', env: { B: '2' } }, { name: 'page', path: '/p', page: true, clients: ['ioredis'] }],
    };
    const { contenders, unsupported } = generate('demo', '/apps/demo', m);
    expect(unsupported).toEqual([]);
    expect(contenders.map((c) => c.name)).toEqual([
      'bun-demo-route-node-redis', 'bun-demo-route-ioredis', 'bun-demo-page-ioredis',
      'node-demo-route-node-redis', 'node-demo-route-ioredis', 'node-demo-page-ioredis',
    ]);
    const c = contenders[3]!;
    expect(c).toMatchObject({ runtime: 'node', path: '/r/node-redis', build: ['bun', 'run', 'build'], start: ['node', 'dist/x.js'], env: { A: '1', B: '2' }, page: false });
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
    expect(contenders.map((c) => c.name)).toEqual(['bun-demo-node-redis']);
    expect(unsupported).toEqual([
      { name: 'bun-demo-ioredis', reason: 'crashes at start: some error' },
      { name: 'node-demo-node-redis', reason: 'the framework is Bun-only' },
      { name: 'node-demo-ioredis', reason: 'the framework is Bun-only' },
    ]);
  });

  test('two manifests that generate one name are an error', () => {
    const dir = mkdtempSync(join(tmpdir(), 'apps-'));
    for (const app of ['a', 'b']) {
      mkdirSync(join(dir, app));
      writeFileSync(join(dir, app, 'bench.json'), JSON.stringify(base));
    }
    expect(() => loadSuite(dir)).toThrow('two manifests both generate bun-demo-node-redis');
  });
});
