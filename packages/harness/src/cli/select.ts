// Which contenders a run measures: the suite (--matrix, --profile seed, a --workload's own),
// narrowed by --only and --where, and --self-check's twins. Any bad choice is a UsageError.
import { SETTINGS, type Workload } from '@bench/stream';
import { WORKLOAD_MODULES } from '../workloads';
import { matchesPattern, type Selectable, type SuiteName } from '../model/contenders';
import { UsageError } from './usage-error';

/** The flags as parsed, by name. */
/** The flags' values; a flag given more than once where that is allowed (--app) is a list. */
export type FlagValues = Record<string, string | boolean | string[] | undefined>;

/** The dimensions --where selects on: the contender's own, and every setting's value. */
export const DIMENSIONS = ['runtime', 'framework', 'client', 'variant', ...Object.keys(SETTINGS)] as const;

export type { Selectable };

const dimension = (c: Selectable, key: string): string | null =>
  key in SETTINGS
    ? (c.settings as Record<string, string>)[key]!
    : (c as unknown as Record<string, string | null>)[key]!;

/** --where runtime=bun,client=ioredis → the contenders whose dimensions all match. */
function where(spec: string, among: Selectable[]): Selectable[] {
  const pairs = spec
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => p.split('='));
  for (const pair of pairs) {
    if (pair.length !== 2 || !(DIMENSIONS as readonly string[]).includes(pair[0]!)) {
      throw new UsageError(
        `--where "${spec}" is not accepted; use key=value pairs with the ` +
          `keys ${DIMENSIONS.join(', ')}, e.g. runtime=bun,client=ioredis`,
      );
    }
  }
  return among.filter((c) => pairs.every(([k, v]) => dimension(c, k!) === v));
}

/** --only: an exact name picks any contender; a pattern picks within the suite. */
function only(spec: string, all: Selectable[], suite: Selectable[], own: Workload | null = null): Selectable[] {
  const list = spec
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const pick = (p: string) =>
    all.filter((c) => c.name === p).concat(p.includes('*') ? suite.filter((c) => matchesPattern(p, c.name)) : []);
  const unknown = list.filter((p) => !pick(p).length);
  if (unknown.length || !list.length) {
    throw new UsageError(
      `unknown contender${unknown.length > 1 ? 's' : ''} ` +
        `${unknown.join(', ') || '(empty --only)'}; ` +
        // A workload with a suite of its own lists it with --list (and refuses --matrix).
        (own ? `see --list --workload ${own}` : 'see --list (--list --matrix for every name)'),
    );
  }
  return all.filter((c) => list.some((p) => pick(p).includes(c)));
}

/** The HTTP ceilings (-precomputed) of these contenders' runtimes and frameworks (and variants) not among them. */
function httpCeilingsOf(picked: Selectable[], all: Selectable[]): Selectable[] {
  const stack = (c: Selectable) => `${c.runtime} ${c.framework} ${c.variant}`;
  const stacks = new Set(picked.filter((c) => !c.ceiling).map(stack));
  return all.filter((c) => c.ceiling === 'http' && stacks.has(stack(c)) && !picked.some((p) => p.name === c.name));
}

/** --ceilings, or --matrix (the whole grid, with its ceilings and cost breakdown). */
export const ceilingsOn = (v: FlagValues) => v.ceilings === true || v.matrix === true;

/**
 * Which suite, and which of its contenders: --matrix, --profile seed, --workload live, --only, --where, --self-check.
 */
export function selection(v: FlagValues, all: Selectable[], seedProfile: boolean) {
  const str = (k: string) => v[k] as string | undefined;
  // A workload with a suite of its own measures that suite, under its name; an unknown --workload is refused elsewhere.
  const w = str('workload');
  const ownSuite = w !== undefined && Object.hasOwn(WORKLOAD_MODULES, w) ? WORKLOAD_MODULES[w as Workload].suite : null;
  const own = ownSuite ? (w as Workload) : null;
  if (ownSuite && (v.matrix || seedProfile))
    throw new UsageError(
      `--workload ${own} measures its own suite (${ownSuite.holds}): leave out --matrix and --profile seed`,
    );
  const suiteName: SuiteName = own ?? (v.matrix ? 'matrix' : seedProfile ? 'seed' : 'default');
  if (v.matrix && seedProfile)
    throw new UsageError(
      "--matrix and --profile seed exclude each other: the seed profile measures the seed's contenders",
    );
  // The HTTP ceilings join their stacks' suites; without --ceilings (or --matrix) only a name in --only picks one.
  const member = ownSuite?.pick ?? ((c: Selectable) => c.suites.includes(suiteName));
  const suite = all.filter((c) => member(c) && (!c.ceiling || ceilingsOn(v)));
  let picked = str('only') !== undefined ? only(str('only')!, all, suite, own) : null;
  if (str('where') !== undefined) {
    picked = where(str('where')!, picked ?? suite);
    if (!picked.length)
      throw new UsageError(
        `no contender matches --where ${str('where')}${str('only') ? ` among --only ${str('only')}` : ''}; see --list`,
      );
  }
  // --ceilings with --only or --where: each picked stack's HTTP ceiling too, which its cost breakdown needs.
  if (picked && ceilingsOn(v)) picked = [...picked, ...httpCeilingsOf(picked, all)];
  const selected = (picked ?? suite).map((c) => c.name);
  const selfCheck =
    str('self-check') !== undefined ? only(str('self-check')!, all, suite, own).map((c) => c.name) : null;
  if (selfCheck?.some((n) => !selected.includes(n)))
    throw new UsageError('--self-check names a contender that the run leaves out: it is measured inside the suite too');
  return { suiteName, measured: picked ?? suite, only: picked ? picked.map((c) => c.name) : null, selected, selfCheck };
}
