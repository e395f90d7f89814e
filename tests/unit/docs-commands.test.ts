// The commands and links the README and the user docs show, checked without running a benchmark:
// every `npm run <script>` names a script of package.json, every `npm run bench -- …` is accepted
// by the flag parser against the real contenders, and every relative link reaches a file. (The
// README's "Running one app by hand" block is run line by line in tests/integration/docs.test.ts;
// docs/runs/ logs what ran at a dated commit, so its commands are records, not instructions.)
import { describe, expect, test } from 'bun:test';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseCli } from '../../packages/harness/src/cli/args';
import { loadSuite } from '../../packages/harness/src/model/contenders';
import { ROOT } from '../../packages/harness/src/system/paths';

const DOCS = ['README.md', 'docs/usage.md', 'docs/methodology.md', 'docs/runs/README.md'];
const text = (doc: string) => readFileSync(join(ROOT, doc), 'utf8');
/** Placeholders the docs write in capitals, swapped for a real value. */
const PLACEHOLDERS: Record<string, string> = { NAME: 'node-raw-node-redis' };

/** Every `npm run <script> [-- args]` in a document: from code blocks and inline code, comments cut. */
function npmCommands(doc: string): { script: string; args: string[] }[] {
  const out: { script: string; args: string[] }[] = [];
  for (const m of text(doc).matchAll(/npm run ([a-z-]+)((?: -- )[^`|\n]*)?/g)) {
    const args = (m[2] ?? '')
      .replace(/^ -- /, '')
      .replace(/\s+#.*$/, '')
      .trim();
    out.push({ script: m[1]!, args: args ? args.split(/\s+/).map((a) => PLACEHOLDERS[a] ?? a) : [] });
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

  test.each(DOCS)('%s: every relative link reaches a file', (doc) => {
    const broken = [...text(doc).matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)]
      .map((m) => m[1]!)
      .filter((href) => !/^[a-z]+:/.test(href) && !existsSync(join(ROOT, dirname(doc), href)));
    expect(broken).toEqual([]);
  });
});
