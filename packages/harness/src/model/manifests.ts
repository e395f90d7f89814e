// The app folders' bench.json files read and validated against manifest.schema.json, and the suite generated from them
// (contenders.ts generate). Every file the contenders come from is read here.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import Ajv from 'ajv';
import schema from '../../manifest.schema.json';
import { ROOT } from '../system/paths';
import { type AppManifest, type Contender, generate, ManifestError, type Unsupported } from './contenders';

/** BENCH_APPS_DIR points the harness at another set of apps (the fault tests' fake contenders). */
export const APPS_DIR = process.env.BENCH_APPS_DIR ? resolve(process.env.BENCH_APPS_DIR) : join(ROOT, 'apps');

const validate = new Ajv({ allErrors: true }).compile<AppManifest>(schema);

/** Reads and checks one bench.json; errors name the file and the field. */
export function readManifest(file: string): AppManifest {
  const where = relative(ROOT, file).startsWith('..') ? file : relative(ROOT, file);
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new ManifestError(`${where}: not valid JSON: ${(e as Error).message}; fix it or remove that app's folder`);
  }
  if (!validate(json)) {
    const errors = (validate.errors ?? [])
      .filter((e) => e.keyword !== 'propertyNames')
      .map((e) => {
        const field = `${e.instancePath || '(top level)'}${e.propertyName ? ` key "${e.propertyName}"` : ''}`;
        const extra =
          e.keyword === 'additionalProperties'
            ? ` "${(e.params as { additionalProperty: string }).additionalProperty}"`
            : e.keyword === 'enum'
              ? ` (${(e.params as { allowedValues: unknown[] }).allowedValues.join(', ')})`
              : '';
        return `${field} ${e.message}${extra}`;
      });
    throw new ManifestError(`${where}: ${errors.join('; ')} (the format: packages/harness/manifest.schema.json)`);
  }
  return json;
}

/** Lockfiles of other package managers: an app in apps/ installs from the workspace's bun.lock, never from these. */
const OTHER_LOCKFILES = ['package-lock.json', 'npm-shrinkwrap.json', 'pnpm-lock.yaml', 'yarn.lock'];

export function loadSuite(appsDir = APPS_DIR): { contenders: Contender[]; unsupported: Unsupported[] } {
  const contenders: Contender[] = [];
  const unsupported: Unsupported[] = [];
  for (const app of readdirSync(appsDir).sort()) {
    const file = join(appsDir, app, 'bench.json');
    if (!existsSync(file)) continue;
    const lock = OTHER_LOCKFILES.find((f) => existsSync(join(appsDir, app, f)));
    if (lock)
      throw new ManifestError(
        `${app}/${lock}: an app in the apps folder is a workspace package, installed from the root bun.lock, so ` +
          `${lock}'s versions would be ignored; run 'scripts/with-tools.sh bun install', commit bun.lock and remove ` +
          `${lock}, or measure the app from its own folder with --target (docs/your-app.md)`,
      );
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
