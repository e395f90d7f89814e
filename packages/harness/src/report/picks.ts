// The README's first screen: what to pick, in plain words, read off the family's answers
// (answers/analysis.ts). Each bullet summarizes several answers, so it carries their range and
// links to them; none says more than they do. Links are relative to the checkout's root.
import type { Analysis, AnswerFigures, Fastest } from '../answers/analysis';
import { rowOf, type QuestionKind } from '../model/questions';
import { labeller, noiseLine, pct } from './answers';
import { placeOf, type Publication } from '../measure/workloads';
import { SETTINGS } from '@bench/stream';

/** Where the default read run is published: results/latest, the README's results block, screenshots/. */
export const READS: Publication = { dir: 'latest', block: 'results', shots: '' };

/** Where a run of this workload is published (a run of one that is not, as the reads are). */
export const publishedAt = (an: Analysis): Publication => placeOf(an.results.settings) ?? READS;

/** Where every answer is, from the README. */
export const answersLink = (an: Analysis) => `results/${publishedAt(an).dir}/results.md`;
const METHOD_LINK = 'docs/methodology.md#the-method';

/** "8%" below 1.5×, "2.1×" from there: how much faster, as the answers say it. */
const factorText = (f: number) => (f >= 1.5 ? `${f.toFixed(1)}×` : pct(f - 1));

/** "by 8% to 2.1×": the range of the estimates of decided answers. */
function rangeText(xs: AnswerFigures[]): string {
  const fs = xs.map((a) => a.sides.factor).sort((x, y) => x - y);
  if (!fs.length) return '';
  const [lo, hi] = [fs[0]!, fs.at(-1)!];
  return lo === hi ? factorText(lo) : `${factorText(lo)} to ${factorText(hi)}`;
}

const decided = (a: AnswerFigures) => a.verdict === 'faster' && !a.out;
const bold = (x: string) => `**${x}**`;
const listed = (xs: string[]) => (xs.length > 1 ? `${xs.slice(0, -1).join(', ')} and ${xs.at(-1)}` : (xs[0] ?? ''));

/** How the leaders of one question read: "**node**", "**deno** or **node** (open between them)". */
function leadersText(an: Analysis, f: Fastest): string {
  const label = labeller(an, f.question);
  const names = f.best.map((b) => bold(label(b)));
  if (names.length === 1) return f.direct ? names[0]! : `${names[0]!} (each other decided slower than another)`;
  const between = an.answers.filter(
    (a) => a.question === f.question.id && f.best.includes(a.a) && f.best.includes(a.b),
  );
  const equal = between.every((a) => a.verdict === 'equal' && !a.out);
  const bounds = between.map((a) => a.bound);
  const how = equal ? `equal within ±${pct(Math.max(...bounds))}` : 'open between them';
  return `${names.slice(0, -1).join(', ')} or ${names.at(-1)} (${how})`;
}

/** The decided answers a question's leaders won: what the pick rests on. */
const wins = (an: Analysis, fs: Fastest[]) =>
  an.answers.filter(
    (a) => decided(a) && fs.some((f) => f.question.id === a.question && f.best.includes(a.sides.winner)),
  );

/**
 * "each decided faster than the rest, by estimates of 8% to 2.1× (10 answers)", linked to the answers; when some
 * leader was not itself decided faster than each of the rest (it leads because they lost to another), the range is
 * only of the wins.
 */
function restText(an: Analysis, fs: Fastest[], won: AnswerFigures[]): string {
  const beat = (q: string, w: string, l: string) =>
    won.some((a) => a.question === q && a.sides.winner === w && a.sides.loser === l);
  const each = fs.every((f) => f.best.every((b) => f.beaten.every((l) => beat(f.question.id, b, l))));
  const range = `${won.length > 1 ? 'estimates' : 'an estimate'} of ${rangeText(won)}`;
  const link = `([${answersCount(won.length)}](${answersLink(an)}))`;
  return each
    ? `each decided faster than the rest, by ${range} ${link}`
    : `decided faster than some of the rest, by ${range} ${link}`;
}
const answersCount = (n: number) => `${n} answer${n === 1 ? '' : 's'}`;

/**
 * One bullet per kind of "which one" question: the leaders of each, and the range of the answers they won; the
 * questions with no leader yet are named.
 */
function leadersBullet(an: Analysis, kind: 'client' | 'runtime'): string {
  const mine = an.leaders.filter((f) => f.question.kind === kind);
  const fs = mine.filter((f) => f.best.length < f.question.members.length);
  const none = mine.filter((f) => f.best.length === f.question.members.length);
  if (!mine.length) return '';
  const won = wins(an, fs);
  const rest = fs.length ? `; ${restText(an, fs, won)}` : '';
  if (kind === 'client') {
    const runtime = (f: Fastest) => f.question.about.split(' ')[0]!;
    const each = fs.map((f) => `on ${runtime(f)} ${leadersText(an, f)}`);
    const open = none.length ? `${each.length ? '; ' : ''}not decided yet on ${listed(none.map(runtime))}` : '';
    return `- **Redis client**, on each runtime's own server: ${listed(each)}${rest}${open}.`;
  }
  // Runtimes: the stacks grouped by what leads them.
  const byText = new Map<string, string[]>();
  for (const f of fs) {
    const t = leadersText(an, f);
    byText.set(t, [...(byText.get(t) ?? []), f.question.about]);
  }
  const each = [...byText].map(([t, stacks]) => `${t} for ${listed(stacks)}`);
  const open = none.length
    ? `${each.length ? '; ' : ''}not decided yet for ${listed(none.map((f) => f.question.about))}`
    : '';
  return `- **Runtime**, for each framework and client: ${each.join('; ')}${rest}${open}.`;
}

/** A signed interval end: "−12%", "+5%". */
const signed = (r: number) => `${r >= 1 ? '+' : '−'}${pct(Math.abs(r - 1))}`;

/** Frameworks, each against its runtime's raw server with the same client: slower, equal, open, faster. */
function frameworkBullet(an: Analysis): string {
  const byName = new Map(an.results.contenders.map((c) => [c.name, c]));
  const mine = an.answers.filter((a) => !a.out && an.questions.find((q) => q.id === a.question)?.kind === 'framework');
  if (!mine.length) return '';
  const names = (xs: AnswerFigures[]) => {
    const at = new Map<string, string[]>();
    for (const a of xs) {
      const c = byName.get(a.a);
      const key = c ? `${rowOf(c)} on ${c.runtime}` : a.a;
      at.set(key, [...(at.get(key) ?? []), c?.client ?? '']);
    }
    return listed([...at].map(([k, clients]) => `${k} (${clients.join(', ')})`));
  };
  const slower = mine.filter((a) => decided(a) && a.ratio < 1);
  const faster = mine.filter((a) => decided(a) && a.ratio >= 1);
  const equal = mine.filter((a) => a.verdict === 'equal');
  const open = mine.filter((a) => a.verdict === 'undecided');
  const bounds = equal.map((a) => a.bound).sort((x, y) => x - y);
  const parts = [
    slower.length && `slower by estimates of ${rangeText(slower)}: ${names(slower)}`,
    faster.length && `faster by estimates of ${rangeText(faster)}: ${names(faster)}`,
    equal.length &&
      `equal within ±${bounds.length > 1 ? `${pct(bounds[0]!).replace('%', '')}–` : ''}${pct(bounds.at(-1)!)}: ` +
        names(equal),
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
  // The named settings' answers (decode, write) have a bullet of their own.
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

/**
 * The settings whose every answer the picks name, each twin against its default: the read path (decode), which
 * changes how the reply becomes the body, and the write strategy, the question a write run asks.
 */
const NAMED: { setting: 'decode' | 'write'; title: string; words: Record<string, string>; doc: string }[] = [
  {
    setting: 'decode',
    title: "**Read path** (the `decode` setting, against the library's default)",
    words: { bytes: "the client's Buffers", raw: 'the raw reply' },
    doc: 'docs/usage.md#the-raw-read-path-decode',
  },
  {
    setting: 'write',
    title: '**Write strategy** (against a Lua script, the default)',
    words: { watch: 'WATCH/MULTI/EXEC', function: 'a Redis function (FCALL)' },
    doc: 'docs/usage.md#writes-the-upsert-workload',
  },
];

type Named = (typeof NAMED)[number];

/** A named setting's answers, each as twin ÷ default, whichever side the comparison put first. */
function namedAnswers(an: Analysis, n: Named): AnswerFigures[] {
  const byName = new Map(an.results.contenders.map((c) => [c.name, c]));
  const isDefault = (name: string) =>
    (byName.get(name)?.settings?.[n.setting] ?? SETTINGS[n.setting].default) === SETTINGS[n.setting].default;
  return an.answers.flatMap((a) =>
    a.out || isDefault(a.a) === isDefault(a.b)
      ? []
      : isDefault(a.b)
        ? [a]
        : [{ ...a, a: a.b, b: a.a, ratio: 1 / a.ratio, lo: 1 / a.hi, hi: 1 / a.lo }],
  );
}

/** "2.1× faster", "8% slower", "4.9× slower": an estimate as the picks say it. */
const howMuch = (r: number) =>
  r >= 1 ? `${factorText(r)} faster` : 1 / r >= 1.5 ? `${(1 / r).toFixed(1)}× slower` : `${pct(1 - r)} slower`;

/**
 * Each answer of a named setting, its twin against its default ("the raw reply on node + node-redis: 2.1× faster
 * (1.8×–2.5× the default's req/s)").
 */
function namedBullet(an: Analysis, n: Named): string {
  const byName = new Map(an.results.contenders.map((c) => [c.name, c]));
  const settingOf = (name: string) => byName.get(name)?.settings?.[n.setting] ?? SETTINGS[n.setting].default;
  const mine = namedAnswers(an, n);
  if (!mine.length) return '';
  const stackOf = (name: string) => {
    const c = byName.get(name)!;
    return `${c.runtime}${c.framework === 'raw' ? '' : ` ${rowOf(c)}`} + ${c.client}`;
  };
  const links = `[${answersCount(mine.length)}](${answersLink(an)}); [what they are](${n.doc})`;
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
  return `- ${n.title}: ${parts.join('; ')} (${links}).`;
}

/** A named setting's answers named one by one up to this many; beyond it, summarized per value. */
const MAX_NAMED = 4;

/** "**2.1× faster** (1.48×–3.13× the default's req/s)", "equal within ±8%", "open (…)". */
function verdictText(a: AnswerFigures): string {
  const interval = `${a.lo.toFixed(2)}×–${a.hi.toFixed(2)}× the default's req/s`;
  if (a.verdict === 'equal') return `equal within ±${pct(a.bound)}`;
  if (a.verdict !== 'faster') return `open (${interval})`;
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
    const [lo, hi] = [factorText(rs[0]!), factorText(rs.at(-1)!)];
    return `**${lo === hi ? lo : `${lo} to ${hi}`} ${word}** ${on(ys)}`;
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

/** The README's opening: the picks in plain words, how sure they are, and where every answer is. */
/** "from the published run (date, CPUs, load): of N comparisons, D decided, E equal, O open (every answer)." */
function runCounts(an: Analysis): string {
  const r = an.results;
  const live = an.answers.filter((a) => !a.out);
  const n = (v: string) => live.filter((a) => a.verdict === v).length;
  const u = r.settings.upsert;
  const load = u ? `POST /items/:id over ${u.keys} key${u.keys === 1 ? '' : 's'}` : r.settings.workload.toUpperCase();
  const p = an.pool;
  const from = p
    ? `pooled over ${p.runs.filter((x) => x.pooled).length} runs on ${p.machines} ` +
      `machine${p.machines === 1 ? '' : 's'} (the latest ${r.started_at.slice(0, 10)}, `
    : `from the published run (${r.started_at.slice(0, 10)}, `;
  return (
    from +
    `${r.environment.logical_cpus} CPUs, ${load} at ${r.settings.connections[0]} connections): ` +
    `of ${live.length} comparisons, ${n('faster')} decided, ${n('equal')} equal, ${n('undecided')} open ` +
    `([every answer](${answersLink(an)}))`
  );
}

export function picksSection(an: Analysis): string {
  const r = an.results;
  const live = an.answers.filter((a) => !a.out);
  if (!live.length) return '';
  const n = (v: string) => live.filter((a) => a.verdict === v).length;
  const head = `**What to pick${r.settings.upsert ? ' for writes' : ''}**, ${runCounts(an)}.`;
  const bullets = [
    leadersBullet(an, 'client'),
    leadersBullet(an, 'runtime'),
    frameworkBullet(an),
    ...NAMED.map((n) => namedBullet(an, n)),
    ...otherBullets(an),
  ]
    .filter(Boolean)
    .join('\n');
  const sure =
    `**How sure:** "decided" means the chance that even one of the ${n('faster')} "faster" answers is wrong is at ` +
    `most 5%; "equal" means the whole interval lies within ±${r.settings.target_ci_pct}%; ` +
    `"open" means not yet known, which is not the same as equal ([the method](${METHOD_LINK})).`;
  return [noiseLine(an), head, bullets, sure].filter(Boolean).join('\n\n');
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
