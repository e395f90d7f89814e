// The import graph of the project's TypeScript packages, read from the sources by TypeScript's own
// parser: every `import … from`, `export … from`, bare `import '…'`, `import('…')`, `require('…')`
// and `import x = require('…')`, type-only ones included (or, asked for values only, left out),
// resolved to files; a specifier no parser can read (`import(name)`) or a package path that is not
// there is an error, not a file left out. Used by tests/unit/imports.test.ts to keep the house free
// of circles and its layers in order.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

export const ROOT = resolve(import.meta.dir, '../..');

/** Each workspace package by name: its folder and its `exports` (subpath → file), read from its package.json. */
const PACKAGES = new Map(
  readdirSync(join(ROOT, 'packages')).flatMap((dir) => {
    const file = join(ROOT, 'packages', dir, 'package.json');
    if (!existsSync(file)) return [];
    const pkg = JSON.parse(readFileSync(file, 'utf8'));
    return [[pkg.name as string, { dir: join('packages', dir), exports: pkg.exports ?? { '.': pkg.main } }]];
  }),
);

/** The file an export condition map names for Bun (`bun`, else `default`), or the path itself. */
const exportTarget = (e: unknown): string | undefined =>
  typeof e === 'string'
    ? e
    : e && typeof e === 'object'
      ? exportTarget((e as any).bun ?? (e as any).default)
      : undefined;

function packageFile(spec: string): string | null {
  const name = [...PACKAGES.keys()].find((n) => spec === n || spec.startsWith(`${n}/`));
  if (!name) return spec.startsWith('@bench/') ? unresolved(spec) : null;
  const { dir, exports } = PACKAGES.get(name)!;
  const target = exportTarget(exports[`.${spec.slice(name.length)}`]);
  return target ? join(ROOT, dir, target) : unresolved(spec);
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

const unresolved = (spec: string, from?: string): never => {
  throw new Error(`${from ? `${relative(ROOT, from)}: ` : ''}cannot resolve ${spec}`);
};

export function resolveSpecifier(from: string, spec: string): string | null {
  if (!spec.startsWith('.')) return packageFile(spec);
  const base = resolve(dirname(from), spec);
  for (const path of [base, `${base}.ts`, join(base, 'index.ts')])
    if (existsSync(path) && statSync(path).isFile()) return path;
  return unresolved(spec, from);
}

export interface Specifier {
  spec: string;
  /** `import type`, `export type` (an `import { type A }` still loads its module, as verbatimModuleSyntax keeps it). */
  typeOnly: boolean;
  /** `import('…')`: loaded when the call runs, not with the file. */
  lazy?: true;
  /** The names it takes: `import { a, b }` ['a', 'b']; a namespace, default, `require` or `import()`: ['*']. */
  names: string[];
}

/** The names an import clause takes: its named bindings; a default or a namespace import takes everything ('*'). */
function namesOf(clause: ts.ImportClause | undefined): string[] {
  if (!clause) return [];
  const named = clause.namedBindings;
  if (clause.name || (named && ts.isNamespaceImport(named))) return ['*'];
  return named ? named.elements.map((e) => (e.propertyName ?? e.name).text) : [];
}

/** A call's first argument as a string, if it is one a reader can see without running the code. */
function literal(node: ts.Node | undefined, text: string): string {
  if (node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node))) return node.text;
  throw new Error(`an import whose specifier is not a plain string: ${node?.getText() ?? text.slice(0, 40)}`);
}

/** Each import, re-export, dynamic import and require of a source text: its specifier, and whether it is type-only. */
export function specifiers(text: string): Specifier[] {
  const file = ts.createSourceFile('x.ts', text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const out: Specifier[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier))
      out.push({
        spec: node.moduleSpecifier.text,
        typeOnly: !!node.importClause?.isTypeOnly,
        names: namesOf(node.importClause),
      });
    else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier))
      out.push({ spec: node.moduleSpecifier.text, typeOnly: node.isTypeOnly, names: ['*'] });
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference))
      out.push({ spec: literal(node.moduleReference.expression, text), typeOnly: node.isTypeOnly, names: ['*'] });
    else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    )
      out.push({ spec: node.argument.literal.text, typeOnly: true, names: ['*'] });
    else if (
      ts.isCallExpression(node) &&
      (node.expression.kind === ts.SyntaxKind.ImportKeyword ||
        (ts.isIdentifier(node.expression) && node.expression.text === 'require'))
    )
      out.push({
        spec: literal(node.arguments[0], text),
        typeOnly: false,
        names: ['*'],
        ...(node.expression.kind === ts.SyntaxKind.ImportKeyword ? { lazy: true as const } : {}),
      });
    ts.forEachChild(node, visit);
  };
  visit(file);
  return out;
}

/**
 * file → the project files it imports (paths relative to the repository); `values`: type-only imports left out;
 * `eager`: what loading the file loads (an `import()` left out, which loads when its call runs).
 */
export function importGraph(dirs: string[], { values = false, eager = false } = {}): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of dirs.flatMap((d) => sources(join(ROOT, d)))) {
    const targets = new Set<string>();
    for (const { spec, typeOnly, lazy } of specifiers(readFileSync(file, 'utf8'))) {
      if ((values && typeOnly) || (eager && lazy)) continue;
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
