// Contenders are generated from each app folder's bench.json (validated against
// manifest.schema.json): every runtime the app declares × every client it serves, per variant.
// Adding one is an app folder plus a manifest, with no change here.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import Ajv from 'ajv';
import schema from '../manifest.schema.json';

export const ROOT = resolve(import.meta.dir, '../../..');
/** BENCH_APPS_DIR points the harness at another set of apps (the fault tests' fake contenders). */
export const APPS_DIR = process.env.BENCH_APPS_DIR ? resolve(process.env.BENCH_APPS_DIR) : join(ROOT, 'apps');

type Command = string[];
export interface AppManifest {
  framework: string;
  about: string;
  runtimes: Record<string, { build?: Command; start: Command }>;
  clients: string[];
  variants?: { name: string; path?: string; static?: boolean; page?: boolean; clients?: string[]; env?: Record<string, string> }[];
  env?: Record<string, string>;
  buildOutputs?: string[];
  chartGroup?: string;
  unsupported?: { runtime?: string; client?: string; reason: string }[];
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
  /** What the build writes; the first must exist after it. */
  buildOutputs: string[];
  start: string[];
  /** Extra environment for this contender's process. */
  env: Record<string, string>;
  /** Drawn in a latency chart of its own (e.g. "next"); null: with the servers. */
  chartGroup: string | null;
}

/** A combination a manifest names but that is not measured, and why. */
export interface Unsupported {
  name: string;
  reason: string;
}

export class ManifestError extends Error {}

const validate = new Ajv({ allErrors: true }).compile<AppManifest>(schema);

/** Reads and checks one bench.json; errors name the file and the field. */
export function readManifest(file: string): AppManifest {
  const where = relative(ROOT, file).startsWith('..') ? file : relative(ROOT, file);
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new ManifestError(`${where}: not valid JSON: ${(e as Error).message}`);
  }
  if (!validate(json)) {
    const errors = (validate.errors ?? []).filter((e) => e.keyword !== 'propertyNames').map((e) => {
      const field = `${e.instancePath || '(top level)'}${e.propertyName ? ` key "${e.propertyName}"` : ''}`;
      const extra = e.keyword === 'additionalProperties' ? ` "${(e.params as { additionalProperty: string }).additionalProperty}"` : e.keyword === 'enum' ? ` (${(e.params as { allowedValues: unknown[] }).allowedValues.join(', ')})` : '';
      return `${field} ${e.message}${extra}`;
    });
    throw new ManifestError(`${where}: ${errors.join('; ')} (the format: packages/harness/manifest.schema.json)`);
  }
  return json;
}

export function contenderName(runtime: string, framework: string, variant: string | null, client: string): string {
  return [runtime, framework, variant, client].filter(Boolean).join('-');
}

/** Every contender one manifest declares, and the combinations it names as unsupported. */
export function generate(app: string, appDir: string, m: AppManifest): { contenders: Contender[]; unsupported: Unsupported[] } {
  const contenders: Contender[] = [];
  const unsupported: Unsupported[] = [];
  const blocked = (runtime: string, client: string) => m.unsupported?.find((u) => (u.runtime ?? runtime) === runtime && (u.client ?? client) === client);
  const runtimes = new Set([...Object.keys(m.runtimes), ...(m.unsupported ?? []).flatMap((u) => (u.runtime ? [u.runtime] : []))]);
  // No variants: one contender per runtime and client, named without a variant.
  const variants: Partial<NonNullable<AppManifest['variants']>[number]>[] = m.variants ?? [{}];
  for (const runtime of runtimes) {
    for (const v of variants) {
      for (const client of v.clients ?? m.clients) {
        const name = contenderName(runtime, m.framework, v.name ?? null, client);
        const rt = m.runtimes[runtime];
        const why = blocked(runtime, client)?.reason;
        if (why || !rt) {
          unsupported.push({ name, reason: why ?? `apps/${app} declares no start command for ${runtime}` });
          continue;
        }
        contenders.push({
          name, app, appDir, runtime, framework: m.framework, variant: v.name ?? null, client,
          path: (v.path ?? '/').replaceAll('{client}', client),
          static: v.static ?? false,
          page: v.page ?? false,
          build: rt.build ?? null,
          buildOutputs: m.buildOutputs ?? [],
          start: rt.start,
          env: { ...m.env, ...v.env },
          chartGroup: m.chartGroup ?? null,
        });
      }
    }
  }
  return { contenders, unsupported };
}

export function loadSuite(appsDir = APPS_DIR): { contenders: Contender[]; unsupported: Unsupported[] } {
  const contenders: Contender[] = [];
  const unsupported: Unsupported[] = [];
  for (const app of readdirSync(appsDir).sort()) {
    const file = join(appsDir, app, 'bench.json');
    if (!existsSync(file)) continue;
    const g = generate(app, join(appsDir, app), readManifest(file));
    contenders.push(...g.contenders);
    unsupported.push(...g.unsupported);
  }
  const names = contenders.map((c) => c.name);
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup) throw new ManifestError(`two manifests both generate ${dup}: give one a variant`);
  return { contenders, unsupported };
}

export const loadContenders = (appsDir = APPS_DIR) => loadSuite(appsDir).contenders;
