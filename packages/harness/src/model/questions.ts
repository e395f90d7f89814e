// The "what to pick" family, fixed from the suite before anything is measured: which runtime
// for a framework + client, which client on a runtime, each framework against its runtime's raw
// server, each setting against its default twin, (live) which cache, if any, on each stack, and
// (--servers) whether the server matters for each contender.
// Every question is a set of pairwise
// comparisons; the error rate is controlled over all of them (decide.ts).
import { SETTINGS } from '@bench/stream';
import { OWN_APP } from './contenders';

/** What a contender needs to be placed in the family (a manifest entry or a result). */
export interface Member {
  name: string;
  runtime: string;
  framework: string;
  variant: string | null;
  client: string;
  tuned?: string[];
  static?: boolean;
  ceiling?: 'http' | null;
  self_check_of?: string;
  /** --against, --handicap: the twin from the other side of this contender (never a member of the family). */
  base_of?: string;
  /** --servers: the twin that reads this server. */
  server?: string;
  /** The app folder it comes from; OWN_APP: a user's own app (--app). */
  app?: string;
}

export type QuestionKind = 'runtime' | 'client' | 'framework' | 'setting' | 'cache' | 'write' | 'server' | 'yours';

export interface Question {
  id: string;
  kind: QuestionKind;
  /** "raw + node-redis", "node (raw server)", "node: fastify + node-redis", "node raw node-redis: autopipeline". */
  about: string;
  members: string[];
}

/** One pairwise comparison of the family: a question's two members, named in a fixed order. */
export interface Comparison {
  id: string;
  question: string;
  a: string;
  b: string;
  /**
   * Its two contenders are measured side by side in every cycle of their runtime's block
   * (run/block.ts): a twin question (a framework against its raw server, a setting, a cache, a
   * write strategy, a server), whose members share a runtime. Whether such a pair varies less per
   * round than apps half a block apart is for each run to show: the layout is a covariate of the
   * family's prior (answers/decide.ts).
   */
  side_by_side?: true;
}

/** The questions whose members share a runtime and differ in one thing: measured side by side. */
const SIDE_BY_SIDE = new Set<QuestionKind>(['framework', 'setting', 'cache', 'write', 'server']);

/** The handicap setting is the run's own check, never an answer; ceilings and static pages read Redis at most once. */
export const HANDICAP = 'handicap';
/** The handicap's default size: requests take this % longer. */
export const HANDICAP_PCT = 10;
export const isHandicapped = (m: Pick<Member, 'tuned'>) => !!m.tuned?.includes(HANDICAP);
/** A write run's `ping` twin writes nothing: the floor of the writes, ranked, but never a stack to pick. */
export const isFloor = (m: { settings?: { write?: string } }) => m.settings?.write === 'ping';
const dynamic = (m: Member) => !m.static && !m.ceiling && !m.self_check_of && !m.base_of && !isHandicapped(m);
/** A stack at its libraries' defaults that reads Redis per request: no setting tuned, no cache, no check. */
export const isPlain = (m: Member) => dynamic(m) && !m.tuned?.length;
const plain = isPlain;
/** A --servers twin: the same contender reading another server. */
const onServer = (m: Member) => dynamic(m) && !!m.server;
/** A cache is one setting with several answers to "which one": they form one question with their uncached twin. */
const CACHE_SUFFIXES = new Set<string>(Object.values(SETTINGS.cache.suffix));
const cached = (m: Member) => dynamic(m) && !m.server && m.tuned?.length === 1 && CACHE_SUFFIXES.has(m.tuned[0]!);
/** The write strategies are one question too ("lua, watch or function"); the PING floor is shown beside it, in none. */
const FLOOR = SETTINGS.write.suffix.ping;
const WRITE_SUFFIXES = new Set<string>(Object.values(SETTINGS.write.suffix).filter((s) => s !== FLOOR));
const written = (m: Member) => dynamic(m) && !m.server && m.tuned?.length === 1 && WRITE_SUFFIXES.has(m.tuned[0]!);
const floor = (m: Member) => !!m.tuned?.includes(FLOOR);
/** "raw", "next route-dynamic": a framework row. */
export const rowOf = (m: Pick<Member, 'framework' | 'variant'>) =>
  m.variant ? `${m.framework} ${m.variant}` : m.framework;

function groups<T>(xs: T[], key: (x: T) => string): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const x of xs) (m.get(key(x)) ?? m.set(key(x), []).get(key(x))!).push(x);
  return m;
}

/** The stack's questions over the plain members: runtime per framework + client, client per raw server, framework. */
function stackQuestions(ps: Member[]): Question[] {
  const questions: Question[] = [];
  for (const [key, xs] of groups(ps, (m) => `${rowOf(m)} + ${m.client}`))
    if (xs.length > 1)
      questions.push({ id: `runtime: ${key}`, kind: 'runtime', about: key, members: xs.map((x) => x.name) });
  for (const [rt, xs] of groups(
    ps.filter((m) => m.framework === 'raw'),
    (m) => m.runtime,
  ))
    if (xs.length > 1)
      questions.push({
        id: `client: ${rt}`,
        kind: 'client',
        about: `${rt} (raw server)`,
        members: xs.map((x) => x.name),
      });
  for (const m of ps.filter((x) => x.framework !== 'raw')) {
    const raw = ps.find((x) => x.framework === 'raw' && x.runtime === m.runtime && x.client === m.client);
    if (raw)
      questions.push({
        id: `framework: ${m.name}`,
        kind: 'framework',
        about: `${m.runtime}: ${rowOf(m)} + ${m.client}`,
        members: [m.name, raw.name],
      });
  }
  return questions;
}

/** The settings' questions: each cache and each write strategy against its plain twin, then each other setting. */
function settingQuestions(members: Member[], ps: Member[]): Question[] {
  const questions: Question[] = [];
  const twinOf = (m: Member) =>
    ps.find(
      (x) => x.runtime === m.runtime && x.framework === m.framework && x.variant === m.variant && x.client === m.client,
    );
  const against = (kind: 'cache' | 'write', xs: Member[], what: string) => {
    for (const [key, group] of groups(xs, (m) => twinOf(m)?.name ?? '')) {
      const twin = ps.find((x) => x.name === key);
      if (twin)
        questions.push({
          id: `${kind}: ${twin.name}`,
          kind,
          about: `${twin.runtime} ${rowOf(twin)} ${twin.client}: ${what}`,
          members: [twin.name, ...group.map((x) => x.name)],
        });
    }
  };
  against('cache', members.filter(cached), 'cache');
  against('write', members.filter(written), 'lua, watch or function');
  for (const m of members.filter(
    (x) => dynamic(x) && !x.server && x.tuned?.length === 1 && !cached(x) && !written(x) && !floor(x),
  )) {
    const twin = twinOf(m);
    if (twin)
      questions.push({
        id: `setting: ${m.name}`,
        kind: 'setting',
        about: `${m.runtime} ${rowOf(m)} ${m.client}: ${m.tuned![0]}`,
        members: [m.name, twin.name],
      });
  }
  return questions;
}

/** Does the server matter for this contender? Its twin on each other server against it. */
function serverQuestions(members: Member[]): Question[] {
  const questions: Question[] = [];
  for (const [base, xs] of groups(members.filter(onServer), (m) => m.name.slice(0, -`-on-${m.server}`.length))) {
    const first = members.find((x) => x.name === base && dynamic(x));
    if (first)
      questions.push({
        id: `server: ${base}`,
        kind: 'server',
        about:
          `${first.runtime} ${rowOf(first)} ` +
          `${first.client}${first.tuned?.length ? ` ${first.tuned.join(' ')}` : ''}: server`,
        members: [base, ...xs.map((x) => x.name)],
      });
  }
  return questions;
}

/** --app: the user's own app against each other stack measured, and its two versions against each other. */
function yoursQuestions(members: Member[]): Question[] {
  const own = members.filter((m) => m.app === OWN_APP);
  const others = members.filter((m) => m.app !== OWN_APP && dynamic(m));
  return own.flatMap((o, i) =>
    [...own.slice(i + 1), ...others].map((m) => ({
      id: `yours: ${o.name} vs ${m.name}`,
      kind: 'yours' as const,
      about: `${o.name} against ${m.name}`,
      members: [o.name, m.name],
    })),
  );
}

export function familyOf(members: Member[]): { questions: Question[]; comparisons: Comparison[] } {
  const ps = members.filter(plain);
  const questions = [
    ...stackQuestions(ps.filter((m) => m.app !== OWN_APP)),
    ...settingQuestions(members, ps),
    ...serverQuestions(members),
    ...yoursQuestions(members),
  ];
  const comparisons = questions.flatMap((q) =>
    q.members.flatMap((a, i) =>
      q.members.slice(i + 1).map(
        (b): Comparison => ({
          id: `${a} vs ${b}`,
          question: q.id,
          a,
          b,
          ...(SIDE_BY_SIDE.has(q.kind) ? { side_by_side: true as const } : {}),
        }),
      ),
    ),
  );
  return { questions, comparisons };
}

/** An --against (or --handicap) twin from the other side: its name ends in BASE. */
export const BASE = '@base';
export const baseName = (name: string) => `${name}${BASE}`;
export const isBase = (name: string | null | undefined) => !!name?.endsWith(BASE);

/** The changes family: each contender against its twin from the other side, this side first, measured side by side. */
export function changeComparisons(names: string[]): Comparison[] {
  return names
    .filter((n) => !isBase(n) && names.includes(baseName(n)))
    .map((n) => ({
      id: `${n} vs ${baseName(n)}`,
      question: `change: ${n}`,
      a: n,
      b: baseName(n),
      side_by_side: true as const,
    }));
}
