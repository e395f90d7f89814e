// Contenders come from each app folder's bench.json: adding one is an app folder plus a
// manifest entry, with no change here.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dir, '../../..');
/** BENCH_APPS_DIR points the harness at another set of apps (the fault tests' fake contenders). */
export const APPS_DIR = process.env.BENCH_APPS_DIR ? resolve(process.env.BENCH_APPS_DIR) : join(ROOT, 'apps');

export interface AppManifest {
  runtime: string;
  framework: string;
  about: string;
  build?: string[];
  /** Folder the build writes; a missing one forces a rebuild. */
  buildOutput?: string;
  start: string[];
  contenders: { client: string; variant?: string; path?: string; static?: boolean; page?: boolean; env?: Record<string, string> }[];
}

export interface Contender {
  name: string;
  app: string;
  appDir: string;
  runtime: string;
  framework: string;
  variant: string | null;
  client: string;
  path: string;
  /** Static variants read Redis at build time only. */
  static: boolean;
  /** Pages embed the body in HTML instead of returning it. */
  page: boolean;
  build: string[] | null;
  buildOutput: string | null;
  start: string[];
  /** Extra environment for this contender's process. */
  env: Record<string, string>;
}

export function contenderName(m: Pick<AppManifest, 'runtime' | 'framework'>, c: { client: string; variant?: string }): string {
  return [m.runtime, m.framework, c.variant, c.client].filter(Boolean).join('-');
}

export function loadContenders(appsDir = APPS_DIR): Contender[] {
  const out: Contender[] = [];
  for (const app of readdirSync(appsDir).sort()) {
    const file = join(appsDir, app, 'bench.json');
    if (!existsSync(file)) continue;
    const m = JSON.parse(readFileSync(file, 'utf8')) as AppManifest;
    for (const c of m.contenders) {
      out.push({
        name: contenderName(m, c),
        app,
        appDir: join(appsDir, app),
        runtime: m.runtime,
        framework: m.framework,
        variant: c.variant ?? null,
        client: c.client,
        path: c.path ?? '/',
        static: c.static ?? false,
        page: c.page ?? false,
        build: m.build ?? null,
        buildOutput: m.buildOutput ?? null,
        start: m.start,
        env: c.env ?? {},
      });
    }
  }
  const names = out.map((c) => c.name);
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup) throw new Error(`two manifest entries are both named ${dup}: give one a variant`);
  return out;
}
