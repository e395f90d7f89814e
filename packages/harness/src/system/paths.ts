// Where the repository is: every path the harness builds (apps, results, scripts) starts here.
import { resolve } from 'node:path';

export const ROOT = resolve(import.meta.dir, '../../../..');

/** The published runs' answers, kept in the repository (model/kept.ts). */
export const KEPT_DIR = resolve(ROOT, 'results/runs');
