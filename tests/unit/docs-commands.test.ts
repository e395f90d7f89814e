// The commands and links the README and the user docs show, checked without running a benchmark:
// every `npm run <script>` names a script of package.json, every `npm run bench -- …` is accepted
// by the flag parser against the real contenders, and every relative link reaches a file. (The
// README's "Running one app by hand" block is run line by line in tests/alone/docs.test.ts;
// docs/runs/ logs what ran at a dated commit, so its commands are records, not instructions.)
import { describe, expect, test } from 'bun:test';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseCli } from '../../packages/harness/src/cli/args';
import { loadSuite } from '../../packages/harness/src/model/manifests';
import { ROOT } from '../../packages/harness/src/system/paths';

const DOCS = [
  'README.md',
  'CONTRIBUTING.md',
  ...['usage', 'changes', 'writes', 'reading', 'extending', 'methodology', 'your-app', 'glossary'].map(
    (d) => `docs/${d}.md`,
  ),
  'docs/runs/README.md',
];
/** Every document whose links are checked: the above, the architecture, every runs doc. */
const LINKED = [
  ...DOCS,
  'docs/architecture.md',
  ...readdirSync(join(ROOT, 'docs/runs'))
    .filter((f) => f.endsWith('.md') && f !== 'README.md')
    .map((f) => `docs/runs/${f}`),
];
/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
const anchors = (doc: string) => new Set([...text(doc).matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1]!)));
/** The relative links of a document: the file (resolved from the checkout's root; '' for the same file) and anchor. */
const links = (doc: string) =>
  [...text(doc).matchAll(/\]\(([^)#\s]*)(?:#([^)\s]*))?\)/g)]
    .filter((m) => !/^[a-z]+:/.test(m[1]!))
    .map((m) => ({ href: m[0]!, file: m[1] ? join(dirname(doc), m[1]) : doc, anchor: m[2] ?? null }));
const text = (doc: string) => readFileSync(join(ROOT, doc), 'utf8');
/**
 * Placeholders the docs write in capitals, and what a doc has the reader make first (your-app.md's folder and its
 * example framework, `myfw`), swapped for a real value.
 */
const PLACEHOLDERS: Record<string, string> = {
  NAME: 'node-raw-node-redis',
  '~/my-app': 'tests/fixtures/your-app',
  'node-myfw-node-redis': 'node-fastify-node-redis',
};

/** Every `npm run <script> [-- args]` in a document: from code blocks and inline code, comments cut. */
function npmCommands(doc: string): { script: string; args: string[] }[] {
  const out: { script: string; args: string[] }[] = [];
  for (const m of text(doc).matchAll(/npm run ([a-z-]+)((?: -- )[^`|\n]*)?/g)) {
    const args = (m[2] ?? '')
      .replace(/^ -- /, '')
      .replace(/\s+#.*$/, '')
      .trim();
    // Words as the shell gives them: a quoted one (--app "node server.js", --only '*-raw-*') is one word.
    const words = (args.match(/"[^"]*"|'[^']*'|\S+/g) ?? []).map((a) => a.replace(/^(["'])(.*)\1$/, '$2'));
    const swapped = words.map((a) =>
      a
        .split(',')
        .map((w) => PLACEHOLDERS[w] ?? w)
        .join(','),
    );
    out.push({ script: m[1]!, args: swapped });
  }
  return out;
}

describe("the docs' commands and links", () => {
  const scripts = JSON.parse(text('package.json')).scripts as Record<string, string>;
  const { contenders } = loadSuite();

  test.each(DOCS)('%s: every npm run names a script of package.json', (doc) => {
    const commands = npmCommands(doc);
    expect(commands.filter((c) => !(c.script in scripts)).map((c) => c.script)).toEqual([]);
  });

  test.each(DOCS)('%s: every npm run bench -- … is accepted by the flag parser', (doc) => {
    const refused: string[] = [];
    for (const c of npmCommands(doc).filter((x) => x.script === 'bench')) {
      try {
        parseCli(c.args, contenders);
      } catch (e) {
        refused.push(`${c.args.join(' ')}: ${(e as Error).message}`);
      }
    }
    expect(refused).toEqual([]);
  });

  test('the README shows bench commands, so the check above checks something', () => {
    expect(npmCommands('README.md').filter((c) => c.script === 'bench' && c.args.length).length).toBeGreaterThan(0);
    expect(npmCommands('docs/usage.md').filter((c) => c.script === 'bench' && c.args.length).length).toBeGreaterThan(5);
  });

  test.each(LINKED)('%s: every relative link reaches a file that git does not ignore, and its heading', (doc) => {
    const all = links(doc);
    const broken = all.filter((l) => !existsSync(join(ROOT, l.file))).map((l) => l.href);
    expect(broken).toEqual([]);
    const ignored = all
      .filter((l) => spawnSync('git', ['check-ignore', '-q', l.file], { cwd: ROOT }).status === 0)
      .map((l) => l.href);
    expect(ignored).toEqual([]);
    const noHeading = all
      .filter((l) => l.anchor && l.file.endsWith('.md') && !anchors(l.file).has(l.anchor))
      .map((l) => l.href);
    expect(noHeading).toEqual([]);
  });
});
