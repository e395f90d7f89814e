// The README's first screen: what to pick, in plain words, read off the family's answers
// (answers/analysis.ts). Each bullet summarizes several answers, so it carries their range and
// links to them; none says more than they do. Links are relative to the checkout's root.
import type { Analysis, AnswerFigures, Fastest } from '../answers/analysis';
import { atDefault, type OnMachine } from '../model/across-runs';
import { rowOf, type QuestionKind } from '../model/questions';
import { labeller, noiseLine, pct } from './answers';
import { asFactor, firstUse, listed, onSomeMachines, pooledDays, term } from './words';

/** The glossary linker of the picks being written (picksSection makes a new one for each). */
let link = firstUse();
import { type NamedSetting, placeOf, type Publication, WORKLOAD_MODULES, workloadOfRun } from '../workloads';
import { SETTINGS } from '@bench/stream';

/** Where the default read run is published: results/latest, the README's results block, screenshots/. */
export const READS: Publication = { dir: 'latest', block: 'results', shots: '' };

/** Where a run of this workload is published (a run of one that is not, as the reads are). */
export const publishedAt = (an: Analysis): Publication => placeOf(an.results.settings) ?? READS;

/** Where every answer is, from the README. */
export const answersLink = (an: Analysis) => `results/${publishedAt(an).dir}/results.md`;
const METHOD_LINK = 'docs/methodology.md#the-method';

/** "8%" below 1.5×, "2.1×" from there: how much faster, as the answers say it. */
const factorText = (f: number) => (asFactor(f) ? `${f.toFixed(1)}×` : pct(f - 1));

/** "by 8% to 2.1×": the range of the estimates of decided answers. */
function rangeText(xs: AnswerFigures[]): string {
  const fs = xs.map((a) => a.sides.factor).sort((x, y) => x - y);
  if (!fs.length) return '';
  return span(fs[0]!, fs.at(-1)!);
}

/** "1.32× to 2.10×" or "8% to 40%": one unit for both ends of a range of factors, never a mix. */
function span(lo: number, hi: number): string {
  const f = asFactor(hi) ? times : (x: number) => pct(x - 1);
  return lo === hi ? f(lo) : `${f(lo)} to ${f(hi)}`;
}

const decided = (a: AnswerFigures) => a.verdict === 'faster' && !a.out;
const bold = (x: string) => `**${x}**`;

/**
 * "1.32×": how many times faster, as the picks say it (one unit in a sentence). A bound near 1 keeps the decimals
 * that tell it from 1 ("1.002×", "0.9996×"): a decided interval's end printed "1.00×" would read as reaching 1,
 * which is what "open" means.
 */
export const times = (f: number) => {
  let d = f < 10 ? 2 : 1;
  while (f !== 1 && d < 6 && Number(f.toFixed(d)) === 1) d++;
  return `${f.toFixed(d)}×`;
};

/** "1.32×, 1.10×–1.58×": a ratio of req/s and its interval, in the brackets after a name. */
const figure = (ratio: number, lo: number, hi: number) => `${times(ratio)}, ${times(lo)}–${times(hi)}`;

/** The machines a pooled answer was measured on at the default placement (none for a run's own answer). */
const measuredOn = (a: AnswerFigures): OnMachine[] => a.pool?.on_machines?.filter(atDefault) ?? [];

/**
 * "; holds on the one machine measured, Intel Xeon": a decided answer measured on fewer machines than the pool's, so
 * that "faster" is not read as holding on every machine; nothing where it was measured on each.
 */
function fewerMachines(an: Analysis, a: AnswerFigures): string {
  const on = measuredOn(a);
  if (!an.pool || !on.length || on.length >= an.pool.machines) return '';
  const which = on.length === 1 ? 'the one machine measured' : `the ${on.length} machines measured`;
  return `; holds on ${which}, ${listed(on.map((o) => o.name))}`;
}

/**
 * An answer decided on some machines only, said of `from` as onSomeMachines says it, each machine that decided it
 * with its figure and interval: "faster on Intel Xeon (1.68×, 1.21×–2.34×), open on AMD EPYC". The words alone
 * where the machines' figures are not recorded; null where onSomeMachines is.
 */
function machinesText(a: AnswerFigures, from: string = a.a): string | null {
  const words = onSomeMachines(a, from);
  const on = measuredOn(a);
  if (!words || !on.length) return words;
  const flip = from !== a.a;
  const said = (o: OnMachine) =>
    o.verdict === 'undecided' ? 'open' : o.verdict === 'equal' ? 'equal' : o.ratio >= 1 !== flip ? 'faster' : 'slower';
  const named = (o: OnMachine) => {
    if (o.verdict !== 'faster') return o.name;
    return `${o.name} (${flip ? figure(1 / o.ratio, 1 / o.hi, 1 / o.lo) : figure(o.ratio, o.lo, o.hi)})`;
  };
  const groups = (['faster', 'slower', 'equal', 'open'] as const)
    .map((w) => [w, on.filter((o) => said(o) === w)] as const)
    .filter(([, ms]) => ms.length)
    .map(([w, ms]) => `${w} on ${ms.map(named).join(' and ')}`)
    .join(', ');
  return `${a.pool?.holds === 'reverses' ? 'reverses: ' : ''}${groups}`;
}

/**
 * One member of a question against the others, as its tested answers say: "**bun-redis**: faster than
 * node-redis (1.32×, 1.10×–1.58×) and glide (2.41×, 1.90×–3.05×), open against iovalkey"; bold only when
 * it is decided faster than some other. `winsOnly`: a member some other is decided faster than, said by whom it is
 * decided slower than and what it is decided faster than ("ioredis, slower than bun-redis: faster than glide
 * (1.51×, 1.06×–2.16×)"), not bold; its answers against the leaders are said by theirs, and those equal or open
 * between two members below the leaders only in results.md.
 */
function memberText(an: Analysis, f: Fastest, m: string, winsOnly = false): string {
  const plain = labeller(an, f.question);
  const label = (name: string) => link(plain(name));
  // The member's name comes first in the text: linked first.
  const me = label(m);
  const mine = an.answers.filter((a) => !a.out && a.question === f.question.id && (a.a === m || a.b === m));
  const other = (a: AnswerFigures) => label(a.a === m ? a.b : a.a);
  const won = mine.filter((a) => decided(a) && a.sides.winner === m);
  const equal = mine.filter((a) => a.verdict === 'equal');
  const some = mine.filter((a) => a.verdict === 'undecided' && onSomeMachines(a));
  const open = mine.filter((a) => a.verdict === 'undecided' && !onSomeMachines(a));
  // Each "faster than" with its interval, and the machines it holds on where it was not measured on each.
  const beaten = (a: AnswerFigures) =>
    `${other(a)} (${figure(a.sides.factor, a.sides.lo, a.sides.hi)}${fewerMachines(an, a)})`;
  const parts = [
    won.length && `faster than ${listed(won.map(beaten))}`,
    !winsOnly &&
      equal.length &&
      `equal to ${listed(equal.map(other))} (within ±${pct(Math.max(...equal.map((a) => a.bound)))})`,
    !winsOnly && some.length && `against ${listed(some.map((a) => `${other(a)} ${machinesText(a, m)}`))}`,
    !winsOnly && open.length && `open against ${listed(open.map(other))}`,
  ].filter(Boolean);
  const lost = winsOnly
    ? `, slower than ${listed(mine.filter((a) => decided(a) && a.sides.winner !== m).map(other))}`
    : '';
  // Bold marks a leader decided faster than some other; a member below a leader is not bold.
  return `${won.length && !winsOnly ? bold(me) : me}${lost}: ${parts.join(', ')}`;
}

/**
 * One question's leaders (the members no other is decided faster than), each with what it is decided against; no
 * "or" between them. None decided faster than any other: open (or equal) between the two, or between all of them,
 * where every answer of the question says so; else each member with what it is equal to and open against.
 */
function leadersText(an: Analysis, f: Fastest): string {
  const n = f.best.length;
  if (n === f.question.members.length) {
    const mine = an.answers.filter((a) => !a.out && a.question === f.question.id);
    const between = n === 2 ? 'between the two' : `between all ${n}`;
    if (mine.every((a) => a.verdict === 'undecided' && !onSomeMachines(a))) return `open ${between}`;
    // None decided on every machine, some on some: each pair as its machines have it.
    if (mine.every((a) => a.verdict === 'undecided')) {
      const label = (name: string) => link(labeller(an, f.question)(name));
      const said = (a: AnswerFigures) => (onSomeMachines(a) ? `: ${machinesText(a)}` : ' open');
      return mine.map((a) => `${label(a.a)} against ${label(a.b)}${said(a)}`).join('; ');
    }
    if (mine.every((a) => a.verdict === 'equal'))
      return `equal ${between} (within ±${pct(Math.max(...mine.map((a) => a.bound)))})`;
  }
  // The others' own decided answers too (a member beaten by a leader may still be decided faster than another), so
  // that every decided answer of the question is said.
  const wins = (m: string) =>
    an.answers.some((a) => !a.out && a.question === f.question.id && decided(a) && a.sides.winner === m);
  const others = f.question.members.filter((m) => !f.best.includes(m) && wins(m));
  const leaders = f.best.map((m) => memberText(an, f, m)).join('; ');
  return others.length ? `${leaders}; ${others.map((m) => memberText(an, f, m, true)).join('; ')}` : leaders;
}

/**
 * One bullet per kind of "which one" question, a line per question: its leaders, each with what it is decided
 * faster than (by how much), equal to, and open against.
 */
function leadersBullet(an: Analysis, kind: 'client' | 'runtime'): string {
  const mine = an.leaders.filter((f) => f.question.kind === kind);
  if (!mine.length) return '';
  const ids = new Set(mine.map((f) => f.question.id));
  const n = an.answers.filter((a) => !a.out && ids.has(a.question)).length;
  const link = `([${answersCount(n)}](${answersLink(an)}))`;
  const where = (f: Fastest) => (kind === 'client' ? `on ${f.question.about.split(' ')[0]!}` : f.question.about);
  const lines = mine.map((f) => `  - ${where(f)}, ${leadersText(an, f)}.`);
  const title =
    kind === 'client' ? "**Redis client**, on each runtime's own server" : '**Runtime**, for each framework and client';
  return `- ${title} ${link}:
${lines.join('\n')}`;
}

const answersCount = (n: number) => `${n} answer${n === 1 ? '' : 's'}`;

/** A signed interval end: "−12%", "+5%". */
const signed = (r: number) => `${r >= 1 ? '+' : '−'}${pct(Math.abs(r - 1))}`;

/** Frameworks, each against its runtime's raw server with the same client: slower, equal, open, faster. */
function frameworkBullet(an: Analysis): string {
  const byName = new Map(an.results.contenders.map((c) => [c.name, c]));
  const mine = an.answers.filter((a) => !a.out && an.questions.find((q) => q.id === a.question)?.kind === 'framework');
  if (!mine.length) return '';
  const names = (xs: AnswerFigures[]) => {
    // Grouped by the plain name and runtime; the glossary link at the name's first use.
    const at = new Map<string, { row: string; on: string; clients: string[] }>();
    for (const a of xs) {
      const c = byName.get(a.a);
      const [row, on] = c ? [rowOf(c), ` on ${c.runtime}`] : [a.a, ''];
      const g = at.get(row + on) ?? { row, on, clients: [] };
      g.clients.push(c?.client ?? '');
      at.set(row + on, g);
    }
    return listed([...at.values()].map((g) => `${link(g.row)}${g.on} (${g.clients.join(', ')})`));
  };
  // A decided answer each with its req/s ÷ its own server's and the interval, as a machine's figure is said:
  // "next page-dynamic on node (ioredis: 0.35×, 0.20×–0.55×)".
  const figured = (xs: AnswerFigures[]) =>
    listed(
      xs.map((a) => {
        const c = byName.get(a.a);
        const name = c ? `${link(rowOf(c))} on ${c.runtime} (${c.client}` : `${a.a} (`;
        return `${name}: ${figure(a.ratio, a.lo, a.hi)}${fewerMachines(an, a)})`;
      }),
    );
  const slower = mine.filter((a) => decided(a) && a.ratio < 1);
  const faster = mine.filter((a) => decided(a) && a.ratio >= 1);
  const equal = mine.filter((a) => a.verdict === 'equal');
  const some = mine.filter((a) => a.verdict === 'undecided' && onSomeMachines(a));
  const open = mine.filter((a) => a.verdict === 'undecided' && !onSomeMachines(a));
  const bounds = equal.map((a) => a.bound).sort((x, y) => x - y);
  const parts = [
    slower.length && `slower (req/s ÷ its own server's): ${figured(slower)}`,
    faster.length && `faster (req/s ÷ its own server's): ${figured(faster)}`,
    equal.length &&
      `equal within ±${bounds.length > 1 ? `${pct(bounds[0]!).replace('%', '')}–` : ''}${pct(bounds.at(-1)!)}: ` +
        names(equal),
    ...some.map((a) => `${names([a])}: ${machinesText(a)}`),
    open.length &&
      `open (${signed(Math.min(...open.map((a) => a.lo)))}…${signed(Math.max(...open.map((a) => a.hi)))}): ` +
        names(open),
  ].filter(Boolean);
  return (
    `- **Framework**, against its runtime's own server with the same client: ${parts.join('; ')} ` +
    `([${answersCount(mine.length)}](${answersLink(an)})).`
  );
}

const OTHER: [QuestionKind, string][] = [
  ['setting', 'Client settings'],
  ['cache', 'Caches'],
  ['server', 'Redis or Valkey'],
];

/** The other kinds of question, counted: each against its default twin. */
function otherBullets(an: Analysis): string[] {
  // The named settings' answers (a read path, a write strategy) have a bullet of their own.
  const named = (a: AnswerFigures) => NAMED.some((n) => namedAnswers(an, n).some((x) => x.id === a.id));
  return OTHER.flatMap(([kind, title]) => {
    const mine = an.answers.filter(
      (a) => !a.out && an.questions.find((q) => q.id === a.question)?.kind === kind && !named(a),
    );
    if (!mine.length) return [];
    const n = (v: string) => mine.filter((a) => a.verdict === v).length;
    const won = mine.filter(decided);
    const range = won.length ? ` (by ${rangeText(won)})` : '';
    return [
      `- **${title}**, each against its default: ${n('faster')} decided${range}, ${n('equal')} equal, ` +
        `${n('undecided')} open ([the answers](${answersLink(an)})).`,
    ];
  });
}

/** The settings whose every answer the picks name, each twin against its default: the workloads' (workloads/). */
const NAMED: readonly NamedSetting[] = Object.values(WORKLOAD_MODULES)
  .flatMap((w) => w.namedSettings)
  .filter((n, i, all) => all.findIndex((m) => m.setting === n.setting) === i);

type Named = NamedSetting;

/** Each contender's value of a named setting, its default where it sets none. */
function settingValues(an: Analysis, n: Named) {
  const byName = new Map(an.results.contenders.map((c) => [c.name, c]));
  return (name: string) => byName.get(name)?.settings?.[n.setting] ?? SETTINGS[n.setting].default;
}

/** An answer the other way round: B ÷ A. */
const turned = (a: AnswerFigures): AnswerFigures => ({
  ...a,
  a: a.b,
  b: a.a,
  ratio: 1 / a.ratio,
  lo: 1 / a.hi,
  hi: 1 / a.lo,
});

/** A named setting's answers, each as twin ÷ default, whichever side the comparison put first. */
function namedAnswers(an: Analysis, n: Named): AnswerFigures[] {
  const value = settingValues(an, n);
  const isDefault = (name: string) => value(name) === SETTINGS[n.setting].default;
  return an.answers.flatMap((a) =>
    a.out || isDefault(a.a) === isDefault(a.b) ? [] : isDefault(a.b) ? [a] : [turned(a)],
  );
}

/**
 * A named setting's answers between two of its non-default values (WATCH against a function), each as the value
 * named first in `words` ÷ the other.
 */
function betweenAnswers(an: Analysis, n: Named): AnswerFigures[] {
  const value = settingValues(an, n);
  const order = Object.keys(n.words);
  const rank = (name: string) => {
    const i = order.indexOf(String(value(name)));
    return i < 0 ? order.length : i;
  };
  const dflt = SETTINGS[n.setting].default;
  return an.answers.flatMap((a) =>
    a.out || value(a.a) === dflt || value(a.b) === dflt || value(a.a) === value(a.b)
      ? []
      : rank(a.a) <= rank(a.b)
        ? [a]
        : [turned(a)],
  );
}

/** "2.1× faster", "8% slower", "4.9× slower": an estimate as the picks say it. */
const howMuch = (r: number) =>
  r >= 1 ? `${factorText(r)} faster` : asFactor(1 / r) ? `${(1 / r).toFixed(1)}× slower` : `${pct(1 - r)} slower`;

/**
 * Each answer of a named setting, its twin against its default ("the raw reply on node + node-redis: 2.1× faster
 * (1.8×–2.5× the default's req/s)").
 */
function namedBullet(an: Analysis, n: Named): string {
  const byName = new Map(an.results.contenders.map((c) => [c.name, c]));
  const settingOf = settingValues(an, n);
  const mine = namedAnswers(an, n);
  if (!mine.length) return '';
  const stackOf = (name: string) => {
    const c = byName.get(name)!;
    return `${c.runtime}${c.framework === 'raw' ? '' : ` ${rowOf(c)}`} + ${c.client}`;
  };
  // Two tuned values on one stack (WATCH against a function) answer the question too: told over their stacks.
  const between = betweenAnswers(an, n);
  const word = (v: unknown) => n.words[String(v)] ?? String(v);
  const pairs = [...new Set(between.map((a) => `${settingOf(a.a)}\0${settingOf(a.b)}`))].map((k) => k.split('\0'));
  const against = pairs.map(
    ([va, vb]) =>
      `${word(va)} against ${word(vb)}: ${overStacks(
        between.filter((a) => settingOf(a.a) === va && settingOf(a.b) === vb),
        stackOf,
      )}`,
  );
  const count = mine.length + between.length;
  const links = `[${answersCount(count)}](${answersLink(an)}); [what they are](${n.doc})`;
  const values = [...new Set(mine.map((a) => settingOf(a.a)))];
  // A few answers are each named; more are told per value, over the stacks.
  const parts =
    mine.length <= MAX_NAMED
      ? mine.map((a) => `${n.words[settingOf(a.a)] ?? settingOf(a.a)} on ${stackOf(a.a)}: ${verdictText(a)}`)
      : values.map(
          (v) =>
            `${n.words[v] ?? v}: ${overStacks(
              mine.filter((a) => settingOf(a.a) === v),
              stackOf,
            )}`,
        );
  return `- ${n.title}: ${[...parts, ...against].join('; ')} (${links}).`;
}

/** A named setting's answers named one by one up to this many; beyond it, summarized per value. */
const MAX_NAMED = 4;

/** "**2.1× faster** (1.48×–3.13× the default's req/s)", "equal within ±8%", "open (…)". */
function verdictText(a: AnswerFigures): string {
  const interval = `${a.lo.toFixed(2)}×–${a.hi.toFixed(2)}× the default's req/s`;
  if (a.verdict === 'equal') return `equal within ±${pct(a.bound)}`;
  if (a.verdict !== 'faster') return `open (${a.short ?? interval})`;
  return `**${howMuch(a.ratio)}** (${interval})`;
}

/**
 * One value's answers over its stacks: "**3.0× to 4.6× slower** on 15 stacks; open on bun + glide (0.87×–1.16×)".
 */
function overStacks(xs: AnswerFigures[], stackOf: (name: string) => string): string {
  const slower = xs.filter((a) => a.verdict === 'faster' && a.ratio < 1);
  const faster = xs.filter((a) => a.verdict === 'faster' && a.ratio >= 1);
  const equal = xs.filter((a) => a.verdict === 'equal');
  const open = xs.filter((a) => a.verdict === 'undecided');
  const on = (ys: AnswerFigures[]) =>
    ys.length > 3 ? `on ${ys.length} stacks` : `on ${listed(ys.map((a) => stackOf(a.a)))}`;
  const range = (ys: AnswerFigures[], f: (r: number) => number, word: string) => {
    const rs = ys.map((a) => f(a.ratio)).sort((p, q) => p - q);
    return `**${span(rs[0]!, rs.at(-1)!)} ${word}** ${on(ys)}`;
  };
  const ends = (ys: AnswerFigures[]) =>
    `${Math.min(...ys.map((a) => a.lo)).toFixed(2)}×–${Math.max(...ys.map((a) => a.hi)).toFixed(2)}×`;
  return [
    slower.length && range(slower, (r) => 1 / r, 'slower'),
    faster.length && range(faster, (r) => r, 'faster'),
    equal.length && `equal within ±${pct(Math.max(...equal.map((a) => a.bound)))} ${on(equal)}`,
    open.length && `open ${on(open)} (${ends(open)})`,
  ]
    .filter(Boolean)
    .join(', ');
}

/** How many of the answers hold as `holds` says across the machines (pool.holds): the count line's and how sure's. */
const holding = (answers: AnswerFigures[], holds: string) => answers.filter((a) => a.pool?.holds === holds).length;

/** "from the published run (date, CPUs, load): of N comparisons, D decided, E equal, O open (every answer)." */
function runCounts(an: Analysis): string {
  const r = an.results;
  const live = an.answers.filter((a) => !a.out);
  const n = (v: string) => live.filter((a) => a.verdict === v).length;
  const load = workloadOfRun(r.settings).load(r, false);
  const p = an.pool;
  // Pooled, "open" counts what is not decided on every machine: those decided on some are counted apart.
  const depends = holding(live, 'depends on the machine');
  const some = depends ? ` (${depends} of them decided on some machines only)` : '';
  const { count, span } = pooledDays(p?.runs ?? []);
  const from = p
    ? `pooled over ${count} runs on ${p.machines} machine${p.machines === 1 ? '' : 's'} (${span}, `
    : `from the published run (${r.started_at.slice(0, 10)}, `;
  return (
    from +
    // Pooled, the machines (and their CPU counts) are named where the page lists them, not as the published run's.
    `${p ? '' : `${r.environment.logical_cpus} CPUs, `}${load} at ${r.settings.connections[0]} connections): ` +
    `of ${live.length} comparisons, ${n('faster')} decided, ${n('equal')} equal, ${n('undecided')} open${some} ` +
    `([every answer](${answersLink(an)}))`
  );
}

/** Every answer by question; `title`: its head, where the first screen above has already said what to pick. */
export function picksSection(an: Analysis, title = 'What to pick'): string {
  const r = an.results;
  const live = an.answers.filter((a) => !a.out);
  if (!live.length) return '';
  const n = (v: string) => live.filter((a) => a.verdict === v).length;
  const { pickFor } = workloadOfRun(r.settings);
  // What the brackets after a name hold, and where a "faster than" holds.
  const key = an.pool
    ? 'In brackets after a "faster than" or a machine: req/s ÷ the other\'s, then its interval (over several ' +
      'machines: their ratios\' geometric mean, and the span of their intervals); a "faster than" holds on every ' +
      'machine measured unless it names its machines.'
    : 'In brackets after a "faster than": req/s ÷ the other\'s, then its interval.';
  const head = `**${title}${pickFor ? ` for ${pickFor}` : ''}**, ${runCounts(an)}. ${key}`;
  link = firstUse();
  const bullets = [
    leadersBullet(an, 'client'),
    leadersBullet(an, 'runtime'),
    frameworkBullet(an),
    ...NAMED.map((n) => namedBullet(an, n)),
    ...otherBullets(an),
  ]
    .filter(Boolean)
    .join('\n');
  // Pooled, the answers' own α (the first screen's picks spend the rest of the page's 5%: results.md's family line).
  const alpha = an.pool
    ? `${+(an.pool.alpha * 100).toPrecision(2)}%${an.pool.picks ? " (5% with the first screen's picks)" : ''}`
    : '5%';
  // Pooled, a "faster" on some machines only (or one that reverses) is a claim at the same level: counted with the
  // others, in the words and counts the page's count line uses (runCounts).
  const some = holding(live, 'depends on the machine');
  const reverse = holding(live, 'reverses');
  const others = [
    some && `of those among the ${some} decided on some machines only`,
    reverse && `of the ${reverse} that reverse`,
  ].filter(Boolean);
  const claims = others.length
    ? `even one "faster" answer is wrong, of the ${n('faster')} and ${others.join(' and ')}, is`
    : `even one of the ${n('faster')} "faster" answers is wrong is`;
  const sure =
    `**How sure:** ${term('decided')} means the chance that ${claims} at most ${alpha}; ` +
    `${term('equal')} means the whole interval lies within ` +
    `±${an.pool?.margin_pct ?? r.settings.target_ci_pct}%; ` +
    `${term('open')} means not yet known, which is not the same as equal ([the method](${METHOD_LINK})).`;
  // Said once on the page: the reads' block says it, a block picking for something else (writes) below it does not.
  return [head, bullets, !pickFor && sure].filter(Boolean).join('\n\n');
}

/**
 * A run published at a network distance (a workload's `distance` place): its noise, then only what the distance is
 * measured for, the named settings against their defaults on each stack (for writes: each strategy against Lua).
 */
export function distancePicks(an: Analysis, rttMs: number): string {
  if (!an.answers.some((a) => !a.out)) return '';
  const head =
    `**With Redis ${rttMs} ms away** (every command crosses a delay proxy that adds a ${rttMs} ms round trip), ` +
    `${runCounts(an)}.`;
  const bullets = NAMED.map((n) => namedBullet(an, n)).filter(Boolean);
  return [noiseLine(an), head, bullets.join('\n')].filter(Boolean).join('\n\n');
}
