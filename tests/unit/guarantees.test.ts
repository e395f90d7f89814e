// docs/testing.md lists what the suite guarantees and, for each line, the test that checks it: a file and words of the
// test's title. Each line must name a file that exists and a title that file holds, so the list cannot rot; and every
// test file is named by at least one line, so a file nobody can say the purpose of does not creep in.
import { describe, expect, test } from 'bun:test';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers/imports';

interface Guarantee {
  line: number;
  what: string;
  file: string;
  title: string;
}

/** The table rows of docs/testing.md: | guarantee | `tests/…test.ts` | words of the test's title |. */
export function guarantees(md: string): Guarantee[] {
  return md.split('\n').flatMap((row, i) => {
    const m = /^\|(.+?)\|\s*`(tests\/[^`]+\.test\.ts)`\s*\|(.+)\|\s*$/.exec(row);
    return m ? [{ line: i + 1, what: m[1]!.trim(), file: m[2]!, title: m[3]!.trim().replace(/\\\|/g, '|') }] : [];
  });
}

/** Every test file under tests/, relative to the root. */
function testFiles(dir = 'tests'): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() && e.name !== 'fixtures'
      ? testFiles(`${dir}/${e.name}`)
      : e.name.endsWith('.test.ts')
        ? [`${dir}/${e.name}`]
        : [],
  );
}

describe('docs/testing.md', () => {
  const list = guarantees(readFileSync(join(ROOT, 'docs/testing.md'), 'utf8'));

  test('the parser reads a row, and an escaped bar in a title', () => {
    const [g] = guarantees('| every body | `tests/unit/x.test.ts` | a \\| b |\n| not a row |');
    expect(g).toEqual({ line: 1, what: 'every body', file: 'tests/unit/x.test.ts', title: 'a | b' });
  });

  test('every guarantee names a test file that exists and a test title that file holds', () => {
    expect(list.length).toBeGreaterThan(40);
    const missing = list.filter((g) => {
      const path = join(ROOT, g.file);
      return !existsSync(path) || !readFileSync(path, 'utf8').includes(g.title);
    });
    expect(missing.map((g) => `docs/testing.md:${g.line}: ${g.file} has no test titled "${g.title}"`)).toEqual([]);
  });

  test('every test file checks at least one guarantee on the list', () => {
    const named = new Set(list.map((g) => g.file));
    expect(testFiles().filter((f) => !named.has(f))).toEqual([]);
  });
});
