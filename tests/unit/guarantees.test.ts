// docs/testing.md lists what the suite guarantees and, for each line, the test that checks it: a file and words of the
// test's title. Each line must name a file that exists and words of a title of that file's tests (a comment or a
// string elsewhere does not count), so the list cannot rot; and every test file is named by at least one line, so a
// file nobody can say the purpose of does not creep in.
import { describe, expect, test } from 'bun:test';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
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

const TEST_FUNCTIONS = new Set(['test', 'it', 'describe']);

/** `test`, `it`, `describe`, and what is called on them: `test.only`, `test.each(…)`, `describe.skipIf(…)`. */
function isTestCallee(e: ts.Expression): boolean {
  if (ts.isIdentifier(e)) return TEST_FUNCTIONS.has(e.text);
  if (ts.isPropertyAccessExpression(e)) return isTestCallee(e.expression);
  return ts.isCallExpression(e) && ts.isPropertyAccessExpression(e.expression) && isTestCallee(e.expression);
}

/**
 * A title's text: a string, or a template with each name it holds read from the file's const of that name (other
 * `${…}` as written); a name, from its const. `depth` stops a name that reads itself.
 */
function titleText(e: ts.Expression, consts: Map<string, ts.Expression>, depth = 0): string | null {
  if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) return e.text;
  const named = (x: ts.Expression) => {
    const init = ts.isIdentifier(x) && depth < 5 ? consts.get(x.text) : undefined;
    return init ? titleText(init, consts, depth + 1) : null;
  };
  if (ts.isTemplateExpression(e))
    return (
      e.head.text +
      e.templateSpans.map((s) => (named(s.expression) ?? `\${${s.expression.getText()}}`) + s.literal.text).join('')
    );
  return named(e);
}

/**
 * The titles of a test file's tests and groups: the first argument of each call of `test(`, `it(`, `describe(`, their
 * `.each(…)(` and `.skipIf(…)(` forms, a string, a template, or a const of the file that holds one.
 */
export function testTitles(file: string, text: string): string[] {
  const src = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const consts = new Map<string, ts.Expression>();
  const firsts: ts.Expression[] = [];
  const visit = (n: ts.Node) => {
    if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && n.initializer) consts.set(n.name.text, n.initializer);
    if (ts.isCallExpression(n) && n.arguments[0] && isTestCallee(n.expression)) firsts.push(n.arguments[0]);
    ts.forEachChild(n, visit);
  };
  visit(src);
  return firsts.flatMap((e) => titleText(e, consts) ?? []);
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

  test('titles are read from the calls, not from comments or other strings', () => {
    const text = [
      "// test('in a comment')",
      "const title = 'a const title';",
      "describe.skipIf(false)('a group', () => {",
      "  test.each([1, 2])('each %p', (n) => { expect(/x/.test('not a title')).toBe(false); });",
      `  it(\`a template \${title} \${n} here\`, () => {});`,
      '  test(title, () => {});',
      '});',
    ].join('\n');
    expect(testTitles('x.test.ts', text)).toEqual([
      'a group',
      'each %p',
      `a template a const title \${n} here`,
      'a const title',
    ]);
  });

  test('every guarantee names a test file that exists and a test title that file holds', () => {
    expect(list.length).toBeGreaterThan(40);
    const titles = new Map<string, string[]>();
    const titlesOf = (file: string) => {
      if (!titles.has(file)) titles.set(file, testTitles(file, readFileSync(join(ROOT, file), 'utf8')));
      return titles.get(file)!;
    };
    const missing = list.filter(
      (g) => !existsSync(join(ROOT, g.file)) || !titlesOf(g.file).some((t) => t.includes(g.title)),
    );
    expect(missing.map((g) => `docs/testing.md:${g.line}: ${g.file} has no test titled "${g.title}"`)).toEqual([]);
  });

  test('every test file checks at least one guarantee on the list', () => {
    const named = new Set(list.map((g) => g.file));
    expect(testFiles().filter((f) => !named.has(f))).toEqual([]);
  });
});
