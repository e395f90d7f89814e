// A contender's inputs are what it runs: its app, the core of packages/stream, its client's adapter and the files its
// settings' values run, there and in packages/raw-reader (run/inputs.ts streamFilesOf, readerFilesOf). Checked on a
// copy of the apps and the package (outside git, so the hash walks the files): a change to one path changes the hash
// of the contenders that run it, and no other's.
import { afterAll, describe, expect, test } from 'bun:test';
import {
  appendFileSync,
  copyFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { loadSuite } from '../../packages/harness/src/model/manifests';
import { contenderInputs, filesChanged, inputsOf, sourceFiles } from '../../packages/harness/src/run/inputs';
import { ROOT } from '../../packages/harness/src/system/paths';

const tmp = mkdtempSync(join(tmpdir(), 'bench-inputs-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const skip = (src: string) => !/(^|\/)(node_modules|\.next|dist)(\/|$)/.test(src);
cpSync(join(ROOT, 'apps'), join(tmp, 'apps'), { recursive: true, filter: skip });
mkdirSync(join(tmp, 'packages'));
for (const p of ['stream', 'raw-reader'])
  cpSync(join(ROOT, 'packages', p), join(tmp, 'packages', p), { recursive: true, filter: skip });
for (const f of ['package.json', 'bun.lock']) copyFileSync(join(ROOT, f), join(tmp, f));

const NAMES = [
  'node-raw-ioredis',
  'node-raw-iovalkey',
  'node-raw-node-redis',
  'node-raw-node-redis-bytes',
  'node-raw-node-redis-rawreply',
];
const suite = () => loadSuite(join(tmp, 'apps')).contenders.filter((c) => NAMES.includes(c.name));
const hashes = (scheme: 'used' | 'package' = 'used') =>
  Object.fromEntries(suite().map((c) => [c.name, inputsOf(c, scheme)]));
/** The contenders whose hash a change to `file` (under packages/) moves. */
function changedBy(file: string, scheme: 'used' | 'package' = 'used'): string[] {
  const before = hashes(scheme);
  appendFileSync(join(tmp, 'packages', file), `\n// changed ${Math.random()}\n`);
  const after = hashes(scheme);
  return NAMES.filter((n) => before[n] !== after[n]);
}

describe('a contender hashes what it runs of packages/stream and packages/raw-reader', () => {
  test('the raw reader: rawreply only; node-raw-ioredis unchanged', () => {
    expect(
      suite()
        .map((c) => c.name)
        .sort(),
    ).toEqual(NAMES);
    expect(changedBy('raw-reader/src/reader.ts')).toEqual(['node-raw-node-redis-rawreply']);
    expect(changedBy('stream/src/raw/reader.ts')).toEqual(['node-raw-node-redis-rawreply']);
    // Its package's README and manifest run in no contender.
    expect(changedBy('raw-reader/README.md')).toEqual([]);
  });

  test('the transcoder: the client byte mode and rawreply, which both write through it', () => {
    for (const f of ['raw-reader/src/transcode.ts', 'raw-reader/src/transcode-wasm.ts'])
      expect(changedBy(f)).toEqual(['node-raw-node-redis-bytes', 'node-raw-node-redis-rawreply']);
  });

  test("a client's adapter: the contenders of that client, and of the one that shares its code", () => {
    expect(changedBy('stream/src/clients/ioredis-like.ts')).toEqual(['node-raw-ioredis', 'node-raw-iovalkey']);
    expect(changedBy('stream/src/clients/node-redis.ts')).toEqual([
      'node-raw-node-redis',
      'node-raw-node-redis-bytes',
      'node-raw-node-redis-rawreply',
    ]);
  });

  test('the core: every contender; and the whole-package hash (kept runs before) moves with any file', () => {
    expect(changedBy('stream/src/canonical.ts')).toEqual(NAMES);
    expect(changedBy('raw-reader/src/reader.ts', 'package')).toEqual(NAMES);
  });

  test("a write strategy's code: the contenders measured under a write workload only; the manifest: every one", () => {
    // writes/ runs under --workload upsert only: the -bytes and -rawreply twins are in no suite of it.
    expect(changedBy('stream/src/writes/lua.ts')).toEqual([
      'node-raw-ioredis',
      'node-raw-iovalkey',
      'node-raw-node-redis',
    ]);
    expect(changedBy('stream/package.json')).toEqual(NAMES);
  });
});

describe("an app's own files, its build script and its locked packages: each moves only who runs it", () => {
  const three = ['node-raw-node-redis', 'node-express-node-redis', 'bun-raw-node-redis'];
  const of = () =>
    Object.fromEntries(
      loadSuite(join(tmp, 'apps'))
        .contenders.filter((c) => three.includes(c.name))
        .map((c) => [c.name, inputsOf(c)]),
    );
  const moved = (change: () => void) => {
    const before = of();
    change();
    const after = of();
    return three.filter((n) => before[n] !== after[n]);
  };
  test('a file in apps/node, the build script the Node apps name, a transitive dependency of express', () => {
    expect(Object.keys(of()).sort()).toEqual([...three].sort());
    expect(moved(() => appendFileSync(join(tmp, 'apps/node/src/server.ts'), '\n// changed\n'))).toEqual([
      'node-raw-node-redis',
    ]);
    mkdirSync(join(tmp, 'scripts'), { recursive: true });
    copyFileSync(join(ROOT, 'scripts/build-node-app.ts'), join(tmp, 'scripts/build-node-app.ts'));
    expect(moved(() => appendFileSync(join(tmp, 'scripts/build-node-app.ts'), '\n// changed\n'))).toEqual([
      'node-raw-node-redis',
      'node-express-node-redis',
    ]);
    // accepts: express's dependency, not an app's own: its locked version moves express's contenders only.
    const lock = join(tmp, 'bun.lock');
    const text = readFileSync(lock, 'utf8');
    const entry = text.match(/"accepts": \["accepts@([^"]+)"/)!;
    expect(entry).not.toBeNull();
    expect(moved(() => writeFileSync(lock, text.replace(entry[0], `"accepts": ["accepts@${entry[1]}-x"`)))).toEqual([
      'node-express-node-redis',
    ]);
  });

  test('a scoped package and an optional native one locked: who installs them moves; a root script moves none', () => {
    const lock = join(tmp, 'bun.lock');
    const bump = (name: string) => {
      const text = readFileSync(lock, 'utf8');
      const entry = text.match(new RegExp(`"${name}": \\["${name}@([^"]+)"`))!;
      expect(entry).not.toBeNull();
      writeFileSync(lock, text.replace(entry[0], `"${name}": ["${name}@${entry[1]}-x"`));
    };
    // @types/express: the express app's own (scoped) package; glide's linux binary: an optional dependency of the
    // client every app installs through @bench/stream.
    expect(moved(() => bump('@types/express'))).toEqual(['node-express-node-redis']);
    expect(moved(() => bump('@valkey/valkey-glide-linux-x64-gnu'))).toEqual(three);
    const pkg = join(tmp, 'package.json');
    const json = JSON.parse(readFileSync(pkg, 'utf8'));
    expect(moved(() => writeFileSync(pkg, JSON.stringify({ ...json, scripts: { ...json.scripts, x: 'y' } })))).toEqual(
      [],
    );
    expect(moved(() => writeFileSync(pkg, JSON.stringify({ ...json, private: !json.private })))).toEqual(three);
  });

  test('a file of the app renamed, its content the same, is other inputs', () => {
    const from = join(tmp, 'apps/node/src/server.ts');
    const to = join(tmp, 'apps/node/src/server-main.ts');
    expect(moved(() => renameSync(from, to))).toEqual(['node-raw-node-redis']);
    renameSync(to, from);
  });
});

describe("a runtime's version in the inputs", () => {
  test("Deno's build target is the machine's: arm64 and x86-64 runs of one version share their inputs", () => {
    const deno = loadSuite(join(tmp, 'apps')).contenders.filter((c) => c.runtime === 'deno');
    expect(deno.length).toBeGreaterThan(0);
    const on = (triple: string) => contenderInputs(deno, { deno: `deno 2.9.6 (stable, release, ${triple})` });
    expect(on('aarch64-unknown-linux-gnu')).toEqual(on('x86_64-unknown-linux-gnu'));
    // Another version is other inputs.
    expect(contenderInputs(deno, { deno: 'deno 2.9.7 (stable, release, x86_64-unknown-linux-gnu)' })).not.toEqual(
      on('x86_64-unknown-linux-gnu'),
    );
  });
});

describe("an --app's folder, file by file", () => {
  test('what changed since a run started: changed, new and gone files named, at most three, the rest counted', () => {
    const was = { 'server.mjs': 'a1', 'package.json': 'b1', 'old.js': 'c1' };
    expect(filesChanged(was, { ...was })).toBe('');
    expect(filesChanged(was, { ...was, 'server.mjs': 'a2' })).toBe('server.mjs (changed)');
    const now = { 'server.mjs': 'a2', 'package.json': 'b1', 'app.log': 'd1', 'x.js': 'e1', 'y.js': 'f1' };
    expect(filesChanged(was, now)).toBe('app.log (new), old.js (gone), server.mjs (changed) and 2 more');
    // Names every object has (constructor) or that would set one's prototype (__proto__) are files like others.
    const repo = mkdtempSync(join(tmpdir(), 'odd-names-'));
    expect(spawnSync('git', ['init', '-q'], { cwd: repo }).status).toBe(0);
    for (const f of ['constructor', '__proto__', 'server.mjs']) writeFileSync(join(repo, f), f);
    const listed = sourceFiles(repo)!;
    expect(Object.keys(listed.files!).sort()).toEqual(['__proto__', 'constructor', 'server.mjs']);
    const recorded = JSON.parse(JSON.stringify(listed.files));
    expect(filesChanged(recorded, listed.files!)).toBe('');
    expect(filesChanged({ 'server.mjs': 'x' }, { 'server.mjs': 'x', constructor: 'y' })).toBe('constructor (new)');
    rmSync(repo, { recursive: true });
  });
});
