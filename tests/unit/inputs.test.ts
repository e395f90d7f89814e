// A contender's inputs are what it runs: its app, the core of packages/stream, its client's adapter and the files its
// settings' values run (run/inputs.ts streamFilesOf). Checked on a copy of the apps and the package (outside git, so
// the hash walks the files): a change to one path changes the hash of the contenders that run it, and no other's.
import { afterAll, describe, expect, test } from 'bun:test';
import { appendFileSync, copyFileSync, cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSuite } from '../../packages/harness/src/model/manifests';
import { inputsOf } from '../../packages/harness/src/run/inputs';
import { ROOT } from '../../packages/harness/src/system/paths';

const tmp = mkdtempSync(join(tmpdir(), 'bench-inputs-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const skip = (src: string) => !/(^|\/)(node_modules|\.next|dist)(\/|$)/.test(src);
cpSync(join(ROOT, 'apps'), join(tmp, 'apps'), { recursive: true, filter: skip });
mkdirSync(join(tmp, 'packages'));
cpSync(join(ROOT, 'packages/stream'), join(tmp, 'packages/stream'), { recursive: true, filter: skip });
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
/** The contenders whose hash a change to `file` (under packages/stream/src) moves. */
function changedBy(file: string, scheme: 'used' | 'package' = 'used'): string[] {
  const before = hashes(scheme);
  appendFileSync(join(tmp, 'packages/stream/src', file), `\n// changed ${Math.random()}\n`);
  const after = hashes(scheme);
  return NAMES.filter((n) => before[n] !== after[n]);
}

describe('a contender hashes what it runs of packages/stream', () => {
  test('the raw reader: rawreply only; node-raw-ioredis unchanged', () => {
    expect(
      suite()
        .map((c) => c.name)
        .sort(),
    ).toEqual(NAMES);
    expect(changedBy('raw/reader.ts')).toEqual(['node-raw-node-redis-rawreply']);
  });

  test('the transcoder: the client byte mode and rawreply, which both write through it', () => {
    expect(changedBy('raw/transcode.ts')).toEqual(['node-raw-node-redis-bytes', 'node-raw-node-redis-rawreply']);
  });

  test("a client's adapter: the contenders of that client, and of the one that shares its code", () => {
    expect(changedBy('clients/ioredis-like.ts')).toEqual(['node-raw-ioredis', 'node-raw-iovalkey']);
    expect(changedBy('clients/node-redis.ts')).toEqual([
      'node-raw-node-redis',
      'node-raw-node-redis-bytes',
      'node-raw-node-redis-rawreply',
    ]);
  });

  test('the core: every contender; and the whole-package hash (kept runs before) moves with any file', () => {
    expect(changedBy('canonical.ts')).toEqual(NAMES);
    expect(changedBy('raw/reader.ts', 'package')).toEqual(NAMES);
  });
});
