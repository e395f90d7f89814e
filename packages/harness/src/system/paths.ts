// Where the repository is: every path the harness builds (apps, results, scripts) starts here.
import { resolve } from 'node:path';

export const ROOT = resolve(import.meta.dir, '../../../..');
