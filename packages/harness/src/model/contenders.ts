// Contenders are generated from each app folder's bench.json (read and validated by manifests.ts): every runtime the
// app declares × every client it serves × the settings it varies, per variant. Adding one is an app folder plus a
// manifest, with no change here. Nothing here reads a file.
import {
  CLIENT_DEFS,
  DEFAULT_SETTINGS,
  SETTINGS,
  type ClientName,
  type SettingDef,
  type SettingName,
  type SettingValues,
  WORKLOADS,
} from '@bench/stream';
import type { RuntimeName } from './runtimes';
import type { ServerName } from './servers';

type Command = string[];
type Variant = {
  name: string;
  path?: string;
  static?: boolean;
  page?: boolean;
  clients?: string[];
  env?: Record<string, string>;
  settings?: string[];
};
export interface AppManifest {
  framework: string;
  about: string;
  runtimes: Partial<Record<RuntimeName, { build?: Command; start: Command; settings?: string[] }>>;
  clients: string[];
  /** Settings the matrix varies for this app, one at a time from the defaults. */
  settings?: string[];
  variants?: Variant[];
  env?: Record<string, string>;
  buildOutputs?: string[];
  chartGroup?: string;
  /**
   * Which of its contenders are in the default suite, and the seed's: patterns pick default-settings ones, an exact
   * name any (a tuned one too).
   */
  suites?: Partial<Record<ListedSuite, string[]>>;
  unsupported?: { runtime?: string; client?: string; reason: string }[];
}

/**
 * The suites: the default one, the matrix of everything, the seed's, and a workload's own under the workload's name
 * (one whose module declares a suite measures it instead of the default one, with the setting values only its
 * workload measures).
 */
export const SUITES = ['default', 'matrix', 'seed', ...WORKLOADS] as const;
export type SuiteName = (typeof SUITES)[number];
/** The suites a manifest lists its contenders in: every one but the matrix, which holds them all. */
type ListedSuite = Exclude<SuiteName, 'matrix'>;
const LISTED = SUITES.filter((s): s is ListedSuite => s !== 'matrix');

export interface Contender {
  name: string;
  app: string;
  appDir: string;
  runtime: string;
  framework: string;
  variant: string | null;
  client: string;
  /** Every setting's value (most at their defaults). */
  settings: SettingValues;
  /** The settings not at their default, as name suffixes (e.g. ["direct"]); empty for the plain contender. */
  tuned: string[];
  /** Suites it belongs to: every contender is in the matrix. */
  suites: SuiteName[];
  /**
   * 'http': serves the body read once at start (transform precomputed), the HTTP ceiling of its runtime and framework;
   * never ranked.
   */
  ceiling: 'http' | null;
  path: string;
  /** Static variants read Redis at build time only. */
  static: boolean;
  /** Pages embed the body in HTML instead of returning it. */
  page: boolean;
  build: string[] | null;
  /**
   * The build reads Redis (a static variant renders the stream at build time): the data is part of its build key. An
   * app whose build reads only its sources is built once whatever stream or workload it then serves.
   */
  buildReadsData: boolean;
  /** What the build writes; the first must exist after it. */
  buildOutputs: string[];
  start: string[];
  /** Extra environment for this contender's process. */
  env: Record<string, string>;
  /** Drawn in a latency chart of its own (e.g. "next"); null: with the servers. */
  chartGroup: string | null;
  /** --servers: the twin that reads this server (servers.ts); absent: the run's first server. */
  server?: ServerName;
  /** --app: a user's own app, started from their command, held to its own body (run/own-app.ts). */
  own?: OwnApp;
}

/** The `app` of a user's own app (--app): never a folder of apps/, never published or kept. */
export const OWN_APP = 'yours';

/** The names of --app's apps when --app-name gives none: the first, and the second version. */
export const OWN_APP_NAMES = ['your-app', 'your-app-2'];

/** A user's own app: its command, and the body it is held to (its first response, a file's, or any body). */
export interface OwnApp {
  command: string;
  body: { from: 'first' } | { from: 'file'; path: string } | { from: 'any' };
  /** The body every check compares with, once known (a file's at once; the first response at the first launch). */
  golden?: string;
}

/** A combination a manifest names but that is not measured, and why. */
export interface Unsupported {
  name: string;
  reason: string;
}

/** What choosing contenders reads of one (--only, --where, a workload's suite rule). */
export type Selectable = Pick<
  Contender,
  'name' | 'runtime' | 'framework' | 'client' | 'variant' | 'settings' | 'suites'
> &
  Partial<Pick<Contender, 'ceiling'>>;

/** A manifest that cannot be read, or generates what no suite can hold: its message names the file and the field. */
export class ManifestError extends Error {}

export function contenderName(
  runtime: string,
  framework: string,
  variant: string | null,
  client: string,
  tuned: string[] = [],
): string {
  return [runtime, framework, variant, client, ...tuned].filter(Boolean).join('-');
}

/** 'bun-*' → every name it matches ('*' is the only wildcard); a plain name matches itself. */
export const matchesPattern = (pattern: string, name: string) =>
  new RegExp(
    `^${pattern
      .split('*')
      .map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  ).test(name);

/**
 * A suites entry: a pattern picks default-settings contenders only; an exact name any, a tuned one too (e.g.
 * node-raw-node-redis-handicap).
 */
const picks = (entry: string, name: string, plain: boolean) =>
  entry.includes('*') ? plain && matchesPattern(entry, name) : entry === name;

/**
 * The default settings, then each listed setting that applies to the client flipped alone to each
 * other value. `onlyIn`: the workloads (and so the suites) the value is measured in (SETTINGS'
 * workloads); null: every workload.
 */
function settingCombos(
  names: string[],
  client: string,
): { settings: SettingValues; tuned: string[]; onlyIn: readonly string[] | null }[] {
  const combos: { settings: SettingValues; tuned: string[]; onlyIn: readonly string[] | null }[] = [
    { settings: { ...DEFAULT_SETTINGS }, tuned: [], onlyIn: null },
  ];
  for (const name of names) {
    const def: SettingDef = SETTINGS[name as SettingName];
    if (def.clients && !def.clients.includes(client)) continue;
    // precomputed is no alternative but a ceiling: one per runtime and framework, not per client.
    for (const value of def.values.filter(
      (v) => v !== def.default && v !== 'precomputed' && (def.valueClients?.[v]?.includes(client) ?? true),
    )) {
      combos.push({
        settings: { ...DEFAULT_SETTINGS, [name]: value } as SettingValues,
        tuned: [def.suffix[value]!],
        onlyIn: def.workloads ?? null,
      });
    }
  }
  return combos;
}

/** Why a runtime × client pair is not measured: the manifest says so, or the client cannot run there. */
function blockedBy(m: AppManifest, app: string, runtime: string, client: string): string | null {
  const named = m.unsupported?.find((u) => (u.runtime ?? runtime) === runtime && (u.client ?? client) === client);
  if (named) return named.reason;
  const clientWhy = (CLIENT_DEFS[client as ClientName]?.unsupported as Record<string, string> | undefined)?.[runtime];
  if (clientWhy) return `${client}: ${clientWhy}`;
  return m.runtimes[runtime as RuntimeName] ? null : `apps/${app} declares no start command for ${runtime}`;
}

/**
 * The HTTP ceiling of each runtime × framework (× variant): the same app serving the body it read
 * once at start, named <runtime>-<framework>[-<variant>]-precomputed (no client runs per request).
 * It joins the default suite where a contender of that stack is in it.
 */
function httpCeilings(contenders: Contender[]): Contender[] {
  const out: Contender[] = [];
  for (const c of contenders.filter((x) => !x.static && !x.tuned.length)) {
    const name = contenderName(c.runtime, c.framework, c.variant, '', ['precomputed']);
    const existing = out.find((x) => x.name === name);
    if (existing) {
      if (c.suites.includes('default') && !existing.suites.includes('default')) existing.suites.push('default');
      continue;
    }
    const suites: SuiteName[] = ['matrix', ...(c.suites.includes('default') ? ['default' as const] : [])];
    out.push({
      ...c,
      name,
      settings: { ...c.settings, transform: 'precomputed' },
      tuned: ['precomputed'],
      suites,
      ceiling: 'http',
    });
  }
  return out;
}

/** Every contender one manifest declares, and the combinations it names as unsupported. */
export function generate(
  app: string,
  appDir: string,
  m: AppManifest,
): { contenders: Contender[]; unsupported: Unsupported[] } {
  const contenders: Contender[] = [];
  const unsupported: Unsupported[] = [];
  const runtimes = new Set([
    ...Object.keys(m.runtimes),
    ...(m.unsupported ?? []).flatMap((u) => (u.runtime ? [u.runtime] : [])),
  ]);
  // No variants: one contender per runtime and client, named without a variant.
  const variants: Partial<Variant>[] = m.variants ?? [{}];
  for (const runtime of runtimes) {
    for (const v of variants) {
      for (const client of v.clients ?? m.clients) {
        const why = blockedBy(m, app, runtime, client);
        if (why) unsupported.push({ name: contenderName(runtime, m.framework, v.name ?? null, client), reason: why });
        else contenders.push(...combos(app, appDir, m, runtime as RuntimeName, v, client));
      }
    }
  }
  contenders.push(...httpCeilings(contenders));
  checkSuitePatterns(app, m, contenders);
  return { contenders, unsupported };
}

/** One runtime, variant and client of a manifest: a contender per combination of its settings. */
function combos(
  app: string,
  appDir: string,
  m: AppManifest,
  runtime: RuntimeName,
  v: Partial<Variant>,
  client: string,
): Contender[] {
  const rt = m.runtimes[runtime]!;
  const inSuite = (suite: ListedSuite, name: string, plain: boolean) =>
    (m.suites?.[suite] ?? []).some((p) => picks(p, name, plain));
  return settingCombos(v.settings ?? rt.settings ?? m.settings ?? [], client).map(({ settings, tuned, onlyIn }) => {
    const name = contenderName(runtime, m.framework, v.name ?? null, client, tuned);
    const plain = tuned.length === 0;
    const named = LISTED.filter((x) => inSuite(x, name, plain));
    // A value kept to workloads with suites of their own (a cache: live) is in those suites only; one the default
    // workload measures (decode: xrange and xrange-count) stays in the default suites, refused under the others.
    const suites: SuiteName[] =
      onlyIn && !onlyIn.includes('xrange') ? named.filter((x) => onlyIn.includes(x)) : ['matrix', ...named];
    return {
      name,
      app,
      appDir,
      runtime,
      framework: m.framework,
      variant: v.name ?? null,
      client,
      settings,
      tuned,
      suites,
      ceiling: null,
      path: (v.path ?? '/').replaceAll('{client}', client),
      static: v.static ?? false,
      page: v.page ?? false,
      build: rt.build ?? null,
      buildReadsData: (m.variants ?? []).some((x) => x.static),
      buildOutputs: m.buildOutputs ?? [],
      start: rt.start,
      env: { ...m.env, ...v.env },
      chartGroup: m.chartGroup ?? null,
    };
  });
}

/** Each suite pattern of the manifest must name a contender it generates (the ceilings join with their stack). */
function checkSuitePatterns(app: string, m: AppManifest, contenders: Contender[]): void {
  for (const [suite, patterns] of Object.entries(m.suites ?? {})) {
    const stray = patterns.find(
      (p) =>
        !contenders.some(
          (c) => c.suites.includes(suite as SuiteName) && picks(p, c.name, !c.tuned.length || c.ceiling !== null),
        ),
    );
    if (stray)
      throw new ManifestError(
        `apps/${app}/bench.json: /suites/${suite} "${stray}" names no contender this app generates ` +
          'with default settings (an exact name may name a tuned one); see --list --matrix',
      );
  }
}
