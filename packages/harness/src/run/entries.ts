// --entries 339,3390,33900: the same contenders on streams of each size, one complete run per size
// in <run>/entries-<n>/, each on a deterministic RDB from npm run make-rdb, cached.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../system/paths';

/**
 * The most entries a generated stream may have: about 55 MB in one XRANGE reply (339 entries are 18.6 KB); at 33,900
 * a request already takes seconds. A larger count ran make-rdb for minutes with no end in sight.
 */
export const MAX_ENTRIES = 1_000_000;

/** A stream of `entries` entries, generated once by scripts/make-rdb.ts (seeded: the same bytes every time). */
export function rdbFor(entries: number): string {
  const dir = join(ROOT, 'node_modules/.cache/stream-bench/rdb');
  const file = join(dir, `stream-${entries}.rdb`);
  if (existsSync(file)) return file;
  mkdirSync(dir, { recursive: true });
  const tmp = `${file}.tmp-${process.pid}`;
  const made = spawnSync('bun', [join(ROOT, 'scripts/make-rdb.ts'), '--entries', String(entries), '--out', tmp], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 600_000,
  });
  if (made.status !== 0)
    throw new Error(
      `npm run make-rdb -- --entries ${entries} failed: ${(made.stderr || made.stdout).trim().split('\n').at(-1)}`,
    );
  renameSync(tmp, file);
  return file;
}
