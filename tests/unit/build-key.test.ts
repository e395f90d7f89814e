// The build cache key (measure/apps.ts buildApp): an app is rebuilt when any file its build reads changes, inside its
// folder or outside it (the build script, the lockfile, bunfig.toml, the shared packages), so that an --against side
// is never stale; and when the stream changes only if its build reads Redis (static pages).
import { afterAll, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp, filesOutside } from '../../packages/harness/src/measure/apps';
import type { Contender } from '../../packages/harness/src/model/contenders';

const root = mkdtempSync(join(tmpdir(), 'bench-build-key-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

// A checkout of one app whose build is a script outside its folder that counts its runs.
const appDir = join(root, 'apps', 'tiny');
mkdirSync(join(appDir, 'src'), { recursive: true });
mkdirSync(join(root, 'scripts'));
mkdirSync(join(root, 'packages/stream/src'), { recursive: true });
mkdirSync(join(root, 'packages/raw-reader/src'), { recursive: true });
writeFileSync(join(appDir, 'src/server.ts'), 'export {};\n');
writeFileSync(join(root, 'package.json'), '{"name":"tiny"}\n');
writeFileSync(join(root, 'bun.lock'), '{}\n');
writeFileSync(join(root, 'bunfig.toml'), '[install]\nlinker = "hoisted"\n');
writeFileSync(join(root, 'packages/stream/src/index.ts'), 'export const x = 1;\n');
writeFileSync(join(root, 'packages/raw-reader/src/reader.ts'), 'export const r = 1;\n');
const script = join(root, 'scripts/build.ts');
const counter = join(root, 'builds.txt');
const buildScript = (tag: string) =>
  `// ${tag}\nimport { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';\n` +
  `mkdirSync('dist', { recursive: true }); writeFileSync('dist/server.js', '');\n` +
  `appendFileSync(${JSON.stringify(counter)}, 'b');\n`;
writeFileSync(script, buildScript('one'));

const tiny = {
  name: 'tiny',
  app: 'tiny',
  appDir,
  build: ['bun', '../../scripts/build.ts'],
  buildReadsData: false,
  buildOutputs: ['dist'],
  start: ['node', 'dist/server.js'],
} as unknown as Contender;
const builds = () => readFileSync(counter, 'utf8').length;

test('a build is cached until its script, the lockfile, bunfig.toml, a package or a source changes', async () => {
  expect(filesOutside(tiny).map((f) => f.slice(root.length + 1))).toEqual([
    'package.json',
    'bun.lock',
    'bunfig.toml',
    'scripts/build.ts',
  ]);
  expect(await buildApp(tiny, {}, 'data')).toBe('built');
  expect(await buildApp(tiny, {}, 'data')).toBe('cached');
  const changes: [string, string][] = [
    [script, buildScript('two')],
    [join(root, 'bun.lock'), '{"lockfileVersion":1}\n'],
    [join(root, 'bunfig.toml'), '[install]\nlinker = "isolated"\n'],
    [join(root, 'packages/stream/src/index.ts'), 'export const x = 2;\n'],
    [join(root, 'packages/raw-reader/src/reader.ts'), 'export const r = 2;\n'],
    [join(appDir, 'src/server.ts'), 'export const y = 1;\n'],
  ];
  for (const [file, text] of changes) {
    writeFileSync(file, text);
    expect(`${file}: ${await buildApp(tiny, {}, 'data')}`).toBe(`${file}: built`);
    expect(await buildApp(tiny, {}, 'data')).toBe('cached');
  }
  // Another stream: a build that reads only its sources is kept; one that reads Redis (a static page) is rebuilt.
  expect(await buildApp(tiny, {}, 'other data')).toBe('cached');
  expect(builds()).toBe(7);
  const rendersData = { ...tiny, buildReadsData: true } as Contender;
  expect(await buildApp(rendersData, {}, 'other data')).toBe('built');
  expect(await buildApp(rendersData, {}, 'other data')).toBe('cached');
  expect(await buildApp(rendersData, {}, 'data')).toBe('built');
  expect(builds()).toBe(9);
  // A build made by hand since (Next.js draws a new BUILD_ID each time; the README's `next build` against another
  // Redis) is not the one the stamp names: built again, then cached.
  writeFileSync(join(appDir, 'dist/BUILD_ID'), 'made-by-hand');
  expect(await buildApp(rendersData, {}, 'data')).toBe('built');
  expect(await buildApp(rendersData, {}, 'data')).toBe('cached');
}, 60_000);
