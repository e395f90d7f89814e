// npm run compare -- A B [--absolute] [--html]: two runs' results compared (answers/compare.ts),
// printed, and with --html written as a page beside B's results.json.
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { compare, type Comparison } from '../answers/compare';
import { readResults } from '../model/results-file';
import { comparisonHtml, renderComparison } from '../report/compare';
import { printedHelp } from './usage-error';

/** A results.json, or a directory holding one. */
const resultsPath = (p: string) => (existsSync(p) && statSync(p).isDirectory() ? join(p, 'results.json') : p);

/** --html: the page goes beside B's results.json, named after A's run. */
function writePage(c: Comparison, fileA: string, fileB: string): string {
  const label = (f: string) => basename(dirname(resolve(f)));
  const out = join(dirname(resolve(fileB)), `compare-${label(fileA)}.html`);
  const page = comparisonHtml(
    c,
    { label: label(fileA), results: readResults(fileA) },
    { label: label(fileB), results: readResults(fileB) },
  );
  try {
    writeFileSync(out, page);
  } catch (e) {
    throw new Error(
      `${out} could not be written (${(e as Error).message}): --html writes beside B, in a folder you can write`,
    );
  }
  return out;
}

const USAGE = 'usage: npm run compare -- A B [--absolute] [--html]   (A, B: results directories or results.json files)';
const HELP = `${USAGE}
  A, B         two runs: each a results/<timestamp> folder or its results.json; B is compared with A
  --absolute   each contender's change in req/s, the machine's shift included (default: its change relative to
               its runtime's other contenders, the machine's and each runtime's shift reported apart)
  --html       also write the comparison as a page beside B's results.json
  --help       this help`;

if (import.meta.main) {
  const args = process.argv.slice(2);
  if (printedHelp(args, HELP)) process.exit(0);
  const files = args.filter((x) => !x.startsWith('--'));
  const flags = args.filter((x) => x.startsWith('--'));
  const unknown = flags.find((f) => f !== '--absolute' && f !== '--html');
  const cause = unknown ? `unknown flag ${unknown}` : files.length !== 2 ? `give two runs, got ${files.length}` : null;
  if (cause) {
    console.error(`error: ${cause}; ${USAGE}`);
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
