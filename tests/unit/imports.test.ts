// The house's rules, read from the sources: no import circle anywhere (type-only imports count), and in the harness
// every import goes to a lower layer or stays in its folder. The layers, from the bottom: stats and system (pure
// statistics; processes, ports, paths), model (the data results.json holds, the manifests, the family), topology (the
// servers), measure (one window), answers (what the measurements say), workloads
// (each workload's module, from what measuring asks of it to its report), run and report (one benchmark; what it
// shows), publish (a stored run analysed; keeping, pooling kept runs, publishing), cli (the entry points). The report
// renders what the analysis computed (answers/analysis.ts): from answers/ it imports types only.
import { describe, expect, test } from 'bun:test';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { circles, importGraph, ROOT, resolveSpecifier, specifiers } from '../helpers/imports';

const HARNESS = 'packages/harness/src/';
const LAYER: Record<string, number> = {
  stats: 0,
  system: 0,
  model: 1,
  topology: 2,
  measure: 3,
  workloads: 4.5,
  answers: 4,
  run: 5,
  report: 5,
  publish: 5.5,
  cli: 6,
};
const PACKAGES = ['packages/harness/src', 'packages/stream/src', 'packages/raw-reader/src'];
const graph = importGraph(PACKAGES);
const values = importGraph(PACKAGES, { values: true });
/** Bun's own file and process APIs: `Bun.file(`, `Bun.spawn (`, `Bun.$\`…\``. */
const BUN_IO = /\bBun\.(file|spawn|spawnSync|write)\b|\bBun\.\$/;

/** The fs functions a renderer may use: reading what it renders from (the vendored libraries, a served file). */
const FS_READS = new Set(
  ['readFile', 'stat', 'readdir', 'read', 'close', 'access', 'realpath', 'exists']
    .flatMap((f) => [f, `${f}Sync`])
    .concat('constants'),
);

/**
 * What a source text could write with: fs imports beyond FS_READS (a namespace or require: all of fs; `openSync` unless
 * every call opens read-only, as browser.ts reads a binary's head), Bun.write, a Bun.file's writer, Bun.$.
 */
function writesOf(text: string): string[] {
  const fs = specifiers(text).filter((x) => !x.typeOnly && /^(node:)?fs(\/promises)?$/.test(x.spec));
  const readOnly = (n: string) =>
    n === 'openSync' && [...text.matchAll(/\bopenSync\(([^()]*)\)/g)].every((m) => /,\s*'r'\s*$/.test(m[1]!));
  const bun = specifiers(text).filter((x) => x.spec === 'bun' && x.names.some((n) => ['$', '*', 'write'].includes(n)));
  return [
    ...fs.flatMap((x) => x.names.filter((n) => !FS_READS.has(n) && !readOnly(n)).map((n) => `${x.spec} ${n}`)),
    ...(/\bBun\.(write|\$)|\bBun\.file\([^)]*\)\s*\.writer?\b/.test(text) ? ['Bun.write'] : []),
    ...bun.map(() => 'bun'),
  ];
}

const folderOf = (file: string) => (file.startsWith(HARNESS) ? file.slice(HARNESS.length).split('/')[0]! : null);

/** "from → to" for every import of a value by a report/ file from answers/. */
function reportValues(g: Map<string, string[]>): string[] {
  return [...g].flatMap(([from, tos]) =>
    folderOf(from) === 'report'
      ? tos
          .filter((t) => folderOf(t) === 'answers')
          .map((t) => `${from.slice(HARNESS.length)} → ${t.slice(HARNESS.length)}`)
      : [],
  );
}

/** "from → to" for every harness import that does not go to a lower layer or stay in its folder. */
function upward(g: Map<string, string[]>): string[] {
  const out: string[] = [];
  for (const [from, tos] of g) {
    const a = folderOf(from);
    if (a === null) continue;
    for (const to of tos) {
      const b = folderOf(to);
      if (b === null || a === b) continue;
      if (!(LAYER[b]! < LAYER[a]!)) out.push(`${from.slice(HARNESS.length)} → ${to.slice(HARNESS.length)}`);
    }
  }
  return out;
}

describe('imports', () => {
  test('every harness file sits in a folder of a known layer', () => {
    const loose = [...graph.keys()].filter((f) => f.startsWith(HARNESS) && !(folderOf(f)! in LAYER));
    expect(loose).toEqual([]);
  });

  test('no import circle in the harness or the stream package', () => {
    expect(circles(graph)).toEqual([]);
  });

  test('no harness import runs up a layer, or across two folders of one layer', () => {
    expect(upward(graph)).toEqual([]);
  });

  test('stats imports nothing of the project; model only the stream package, system/paths and stats', () => {
    // model's use of stats/stats: its Interval and Summary; of stats/procedures: the names results.json records, as
    // types only.
    const deps = (folder: string) =>
      [...graph]
        .filter(([f]) => folderOf(f) === folder)
        .flatMap(([, tos]) => tos.filter((t) => folderOf(t) !== folder));
    expect(deps('stats')).toEqual([]);
    expect(
      deps('model').filter(
        (t) =>
          !t.startsWith('packages/stream/src/') &&
          t !== `${HARNESS}system/paths.ts` &&
          t !== `${HARNESS}stats/stats.ts` &&
          t !== `${HARNESS}stats/procedures.ts`,
      ),
    ).toEqual([]);
    const modelValues = [...values]
      .filter(([f]) => folderOf(f) === 'model')
      .flatMap(([, tos]) => tos.filter((t) => t === `${HARNESS}stats/procedures.ts`));
    expect(modelValues).toEqual([]);
  });

  test('the checks see a circle and an upward import when there is one', () => {
    const g = new Map([
      [`${HARNESS}stats/a.ts`, [`${HARNESS}cli/b.ts`]],
      [`${HARNESS}cli/b.ts`, [`${HARNESS}stats/a.ts`]],
    ]);
    expect(circles(g)).toEqual([[`${HARNESS}cli/b.ts`, `${HARNESS}stats/a.ts`]]);
    expect(upward(g)).toEqual(['stats/a.ts → cli/b.ts']);
  });

  test('report/ imports nothing from answers/ but types', () => {
    expect(reportValues(values)).toEqual([]);
  });

  test('report/ imports no statistics: not stats/, not a statistics library', () => {
    const dir = join(ROOT, HARNESS, 'report');
    const statistical = readdirSync(dir)
      .filter((f) => f.endsWith('.ts'))
      .flatMap((f) =>
        specifiers(readFileSync(join(dir, f), 'utf8'))
          .filter((x) => /^\.\.\/stats\/|^(simple-statistics|jstat)$/.test(x.spec))
          .map((x) => `report/${f} → ${x.spec}`),
      );
    expect(statistical).toEqual([]);
  });

  test('report/ writes no file: it renders files by name, and publish/files.ts writes them', () => {
    const dir = join(ROOT, HARNESS, 'report');
    const writes = readdirSync(dir)
      .filter((f) => f.endsWith('.ts'))
      .flatMap((f) => writesOf(readFileSync(join(dir, f), 'utf8')).map((w) => `report/${f} → ${w}`));
    expect(writes).toEqual([]);
    // What the check sees: a promise API's write, a stream, a copy, a namespace import, Bun's own writer.
    for (const text of [
      "import { writeFile } from 'node:fs/promises';",
      "import { createWriteStream } from 'fs';",
      "import { copyFileSync, readFileSync } from 'node:fs';",
      "import * as fs from 'node:fs';",
      "const fs = require('node:fs');",
      'await Bun.write(path, html);',
      "import { open } from 'node:fs/promises'; const h = await open('r.html', 'w'); await h.writeFile(html);",
      "import { openSync } from 'node:fs'; openSync('results.md', 'w');",
      "await Bun.file('report.html').write(html);",
      "import { $ } from 'bun'; await $`cp a.html report.html`;",
    ])
      expect(writesOf(text)).not.toEqual([]);
    expect(writesOf("import { existsSync, readFileSync } from 'node:fs';")).toEqual([]);
    expect(writesOf("import { openSync, readSync } from 'node:fs'; const fd = openSync(real, 'r');")).toEqual([]);
  });

  test('the check sees a value import from answers/, an inline `type` or a re-export too', () => {
    const text = [
      "import type { A } from '../answers/a';",
      "import { b, type C } from '../answers/b';",
      "import { type D } from '../answers/d';",
      "export type { E } from '../answers/e';",
      "export { f } from '../answers/f';",
    ].join('\n');
    expect(specifiers(text).map((x) => `${x.spec} ${x.typeOnly}`)).toEqual([
      '../answers/a true',
      '../answers/b false',
      '../answers/d false',
      '../answers/e true',
      '../answers/f false',
    ]);
    const g = new Map([[`${HARNESS}report/x.ts`, [`${HARNESS}answers/b.ts`, `${HARNESS}model/c.ts`]]]);
    expect(reportValues(g)).toEqual(['report/x.ts → answers/b.ts']);
  });

  test('analyze() reads no file, and run/plan.ts runs no process: nothing they load (value imports) does', () => {
    // Followed into every package: each harness import (an `import()` too), and what loading a package's file loads
    // (a client's adapter, `import()`ed when an app opens it, is not loaded by the harness).
    const eager = importGraph(PACKAGES, { values: true, eager: true });
    // Imported for what it exports; it reads its TLS files (REDIS_TLS_CA …) only when a connection opens.
    const opensFiles = new Set(['packages/raw-reader/src/reader.ts → node:fs']);
    const io = (start: string) => {
      const seen = new Set<string>();
      const visit = (f: string) => {
        if (seen.has(f)) return;
        seen.add(f);
        for (const t of (f.startsWith(HARNESS) ? values : eager).get(f) ?? []) visit(t);
      };
      visit(`${HARNESS}${start}`);
      expect(seen.size).toBeGreaterThan(5);
      return [...seen].flatMap((f) => {
        const text = readFileSync(join(ROOT, f), 'utf8');
        const specs = specifiers(text).filter(
          (x) => !x.typeOnly && /^(node:)?(fs|fs\/promises|child_process)$/.test(x.spec),
        );
        return [
          ...specs.map((x) => `${f} → ${x.spec}`),
          ...(BUN_IO.test(text) ? [`${f} → Bun`] : []),
          ...specifiers(text)
            .filter(
              (x) => x.spec === 'bun' && x.names.some((n) => ['$', 'spawn', 'spawnSync', 'write', '*'].includes(n)),
            )
            .map(() => `${f} → bun`),
        ].filter((x) => !opensFiles.has(x));
      });
    };
    expect(io('answers/analysis.ts')).toEqual([]);
    expect(io('run/plan.ts')).toEqual([]);
  });

  test('the check reads what a regular expression would miss: backticks, require, a package subpath', () => {
    const text = [
      '/* a comment naming run/*.ts */',
      "import { a } from '../x/a';",
      'const later = () => import(`../x/b`);',
      "const c = require('../x/c');",
      "import d = require('../x/d');",
      "export type T = import('../x/e').E;",
    ].join('\n');
    expect(specifiers(text).map((x) => `${x.spec} ${x.typeOnly}${x.lazy ? ' lazy' : ''}`)).toEqual([
      '../x/a false',
      '../x/b false lazy',
      '../x/c false',
      '../x/d false',
      '../x/e true',
    ]);
    expect(() => specifiers('const m = await import(name);')).toThrow('not a plain string');
    // The state file whose comment once hid its imports from the old reader: each is seen.
    expect(graph.get(`${HARNESS}run/state.ts`)!.length).toBeGreaterThan(5);
    // A subpath resolves through the package's exports; one that is not there is an error.
    const g = importGraph(['tests/fixtures/imports']);
    expect(g.get('tests/fixtures/imports/subpath.ts')).toEqual(['packages/stream/src/canonical.ts']);
    const from = join(ROOT, 'tests/fixtures/imports/subpath.ts');
    expect(() => resolveSpecifier(from, '@bench/stream/nowhere')).toThrow('cannot resolve @bench/stream/nowhere');
    expect(() => resolveSpecifier(from, '@bench/nothing')).toThrow('cannot resolve @bench/nothing');
    expect(resolveSpecifier(from, '@bench/raw-reader')).toBe(join(ROOT, 'packages/raw-reader/src/index.ts'));
    expect(resolveSpecifier(from, 'simple-statistics')).toBeNull();
  });

  test("the stream package's files import its contract, never its front door", () => {
    const back = [...graph].filter(
      ([f, tos]) => f.startsWith('packages/stream/src/') && tos.includes('packages/stream/src/index.ts'),
    );
    expect(back.map(([f]) => f)).toEqual([]);
  });
});
