// npm run compare -- A B [--absolute] [--html]: two runs' results compared (answers/compare.ts),
// printed, and with --html written as a page beside B's results.json.
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { compare, type Comparison } from '../answers/compare';
import { readResults } from '../model/results-file';
import { comparisonHtml, renderComparison } from '../report/compare';

/** A results.json, or a directory holding one. */
const resultsPath = (p: string) => (existsSync(p) && statSync(p).isDirectory() ? join(p, 'results.json') : p);

/** --html: the page goes beside B's results.json, named after A's run. */
function writePage(c: Comparison, fileA: string, fileB: string): string {
  const label = (f: string) => basename(dirname(resolve(f)));
  const out = join(dirname(resolve(fileB)), `compare-${label(fileA)}.html`);
  writeFileSync(
    out,
    comparisonHtml(
      c,
      { label: label(fileA), results: readResults(fileA) },
      { label: label(fileB), results: readResults(fileB) },
    ),
  );
  return out;
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const files = args.filter((x) => !x.startsWith('--'));
  const flags = args.filter((x) => x.startsWith('--'));
  if (files.length !== 2 || flags.some((f) => f !== '--absolute' && f !== '--html')) {
    console.error(
      'usage: npm run compare -- A B [--absolute] [--html]   (A, B: results directories or results.json files)',
    );
    process.exit(2);
  }
  try {
    const mode = flags.includes('--absolute') ? 'absolute' : 'relative';
    const [fileA, fileB] = files.map(resultsPath) as [string, string];
    const comparison = compare(readResults(fileA), readResults(fileB), mode);
    console.log(renderComparison(comparison));
    if (flags.includes('--html')) console.log(`comparison page: ${writePage(comparison, fileA, fileB)}`);
  } catch (e) {
    console.error(`error: ${(e as Error).message}`);
    process.exit(2);
  }
}
