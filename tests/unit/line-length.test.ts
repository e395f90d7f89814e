// The house style the formatter cannot enforce: Biome wraps code at 120 characters, but not a long
// string, template or comment. Every TypeScript line the repository tracks stays within 120 too.
import { describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers/imports';

const MAX = 120;
const tracked = (): string[] => {
  const out = Bun.spawnSync(['git', 'ls-files', '*.ts', '*.tsx'], { cwd: ROOT });
  return out.stdout.toString().split('\n').filter(Boolean);
};

describe('line length', () => {
  test(`no tracked .ts line is over ${MAX} characters`, () => {
    const files = tracked();
    expect(files.length).toBeGreaterThan(100);
    const long = files.flatMap((f) =>
      readFileSync(join(ROOT, f), 'utf8')
        .split('\n')
        .flatMap((line, i) => ([...line].length > MAX ? [`${f}:${i + 1} (${[...line].length})`] : [])),
    );
    expect(long).toEqual([]);
  });
});
