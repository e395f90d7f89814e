// The house style the formatter cannot enforce: Biome wraps code at 120 characters, but not a long
// string, template or comment. Every TypeScript line the repository tracks stays within 120 too,
// and no function of the packages is longer than 60 lines. In the docs, no paragraph or bullet (its nested ones
// included) runs over 25 lines: a longer one is a section of its own, in paragraphs of one idea each.
import { describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Token, type Tokens, lexer } from 'marked';
import ts from 'typescript';
import { ROOT } from '../helpers/imports';

const MAX = 120;
const MAX_FUNCTION = 60;
const MAX_BLOCK = 25;
const tracked = (...patterns: string[]): string[] => {
  const out = Bun.spawnSync(['git', 'ls-files', ...patterns], { cwd: ROOT });
  return out.stdout.toString().split('\n').filter(Boolean);
};

/** "file:line (lines)" for every function, method or arrow in `file` longer than MAX_FUNCTION lines. */
function longFunctions(file: string): string[] {
  const src = ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  const visit = (n: ts.Node) => {
    if (ts.isFunctionLike(n) && 'body' in n && n.body) {
      const from = src.getLineAndCharacterOfPosition(n.getStart()).line;
      const lines = src.getLineAndCharacterOfPosition(n.getEnd()).line - from + 1;
      if (lines > MAX_FUNCTION) out.push(`${file}:${from + 1} (${lines})`);
    }
    ts.forEachChild(n, visit);
  };
  visit(src);
  return out;
}

describe('line length', () => {
  test(`no tracked .ts line is over ${MAX} characters`, () => {
    const files = tracked('*.ts', '*.tsx');
    expect(files.length).toBeGreaterThan(100);
    const long = files.flatMap((f) =>
      readFileSync(join(ROOT, f), 'utf8')
        .split('\n')
        .flatMap((line, i) => ([...line].length > MAX ? [`${f}:${i + 1} (${[...line].length})`] : [])),
    );
    expect(long).toEqual([]);
  });

  test(`no function in packages/ or scripts/ is over ${MAX_FUNCTION} lines`, () => {
    const files = tracked('packages/*.ts', 'scripts/*.ts');
    expect(files.length).toBeGreaterThan(100);
    expect(files.flatMap(longFunctions)).toEqual([]);
  });

  test(`no paragraph or bullet of the docs is over ${MAX_BLOCK} lines`, () => {
    const files = tracked('*.md').filter((f) => !f.startsWith('results/'));
    expect(files.length).toBeGreaterThan(10);
    const lines = (raw: string) => raw.trim().split('\n').length;
    // Top-level paragraphs, and each item of a list (with what it nests) wherever the list sits.
    const blocks = (tokens: Token[]): string[] =>
      tokens.flatMap((t) => {
        if (t.type === 'paragraph') return [t.raw];
        if (t.type === 'list') return (t as Tokens.List).items.map((i) => i.raw);
        if (t.type === 'blockquote') return blocks((t as Tokens.Blockquote).tokens);
        return [];
      });
    const long = files.flatMap((f) => {
      const text = readFileSync(join(ROOT, f), 'utf8');
      return blocks(lexer(text))
        .filter((raw) => lines(raw) > MAX_BLOCK)
        .map((raw) => `${f}:${text.slice(0, text.indexOf(raw)).split('\n').length} (${lines(raw)} lines)`);
    });
    expect(long).toEqual([]);
  });
});
