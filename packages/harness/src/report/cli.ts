// npm run report [-- results/<dir>]: regenerate tables and charts from a results.json;
// for results/latest (the default) also screenshots/ and the README section.
import { resolve } from 'node:path';
import { ROOT } from '../contenders';
import { readResults, resultsFile } from '../results';
import { publishReport, writeReport } from './index';

const dir = resolve(process.argv[2] ?? resolve(ROOT, 'results/latest'));
try {
  await writeReport(dir);
  // README and screenshots/ show full runs only, as the bench itself decides.
  if (dir === resolve(ROOT, 'results/latest') && !readResults(resultsFile(dir)).settings.only) await publishReport(dir);
  console.log(`report written for ${dir}`);
} catch (e) {
  console.error(`error: ${(e as Error).message}`);
  process.exit(1);
}
