// The import graph of the project's TypeScript packages, read from the sources: every
// `import … from`, `export … from`, bare `import '…'` and `import('…')`, type-only ones included
// (or, asked for values only, left out), resolved to files. Used by tests/unit/imports.test.ts to
// keep the house free of circles and its layers in order.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dir, '../..');
const PACKAGES: Record<string, string> = {
  '@bench/stream': 'packages/stream/src/index.ts',
  '@bench/harness': 'packages/harness/src/index.ts',
};
const SPECIFIER =
  /(?:^|[\s;])(?:import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s*)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

function resolveSpecifier(from: string, spec: string): string | null {
  if (PACKAGES[spec]) return join(ROOT, PACKAGES[spec]!);
  if (!spec.startsWith('.')) return null;
  const base = resolve(dirname(from), spec);
  for (const path of [base, `${base}.ts`, join(base, 'index.ts')])
    if (existsSync(path) && statSync(path).isFile()) return path;
  throw new Error(`${relative(ROOT, from)}: cannot resolve ${spec}`);
}

/** Comments out of the way, so an example in a doc comment is not an import. */
const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');

/**
 * Each import and re-export of a source text: its specifier, and whether it is type-only (`import type`,
 * `export type`; an `import { type A }` still loads its module).
 */
export const specifiers = (text: string) =>
  [...code(text).matchAll(SPECIFIER)].map((m) => ({ spec: (m[2] ?? m[3])!, typeOnly: !!m[1] }));

/** file → the project files it imports (paths relative to the repository); `values`: type-only imports left out. */
export function importGraph(dirs: string[], { values = false } = {}): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of dirs.flatMap((d) => sources(join(ROOT, d)))) {
    const targets = new Set<string>();
    for (const { spec, typeOnly } of specifiers(readFileSync(file, 'utf8'))) {
      if (values && typeOnly) continue;
      const to = resolveSpecifier(file, spec);
      if (to?.endsWith('.ts')) targets.add(relative(ROOT, to));
    }
    graph.set(relative(ROOT, file), [...targets].sort());
  }
  return graph;
}

/** The strongly connected components with more than one file, or a file importing itself (Tarjan). */
export function circles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const scc: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      scc.push(w);
    } while (w !== v);
    if (scc.length > 1 || graph.get(v)?.includes(v)) out.push(scc.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return out;
}
