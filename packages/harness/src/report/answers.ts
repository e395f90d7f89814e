// The answer first: each comparison of the family in plain words, decided ones first, then the
// equivalences, then the open ones with what would close them; and the run's own handicap check.
import { bound, DECISION, look, sides } from '../answers/decide';
import { burnUs, MAX_BUSY } from '../answers/handicap';
import { familyOf, rowOf, type Comparison, type Question } from '../model/questions';
import type { ContenderResult, Results } from '../model/results';
import type { Answer } from '../model/results';

const computed = new WeakMap<Results, { questions: Question[]; comparisons: Comparison[]; answers: Answer[] }>();

/** The run's family and answers; results from before both existed get them computed here, with one look at 5%. */
export function answersOf(r: Results): { questions: Question[]; comparisons: Comparison[]; answers: Answer[] } {
  if (r.family && r.answers) return { ...r.family, answers: r.answers };
  const known = computed.get(r);
  if (known) return known;
  const family = r.family ?? familyOf(r.contenders.filter((c) => c.status === 'ok'));
  const out = { ...family, answers: look(r, family.comparisons, 1, DECISION.alpha, r.settings.target_ci_pct ?? 10) };
  computed.set(r, out);
  return out;
}

const pct = (x: number) => `${(x * 100).toFixed(0)}%`;
const signedPct = (ratio: number) => `${ratio >= 1 ? '+' : '−'}${pct(Math.abs(ratio - 1))}`;

/** "serves 1.8× what X does (1.6–2.0×)" from 1.5× on, "is faster than X by 23% (15–31%)" below. */
export function fasterText(factor: number, lo: number, hi: number, loser: string): string {
  return factor >= 1.5
    ? `serves ${factor.toFixed(1)}× what ${loser} does (${lo.toFixed(1)}–${hi.toFixed(1)}×)`
    : `is faster than ${loser} by ${pct(factor - 1)} (${pct(lo - 1)}–${pct(hi - 1)})`;
}

/** How a member reads inside its question: the runtime, the client, the framework row, or the setting. */
function labelIn(q: Question, c: ContenderResult | undefined, name: string, firstServer = 'redis'): string {
  if (!c) return name;
  if (q.kind === 'server') return c.server ?? firstServer;
  if (q.kind === 'runtime') return c.runtime;
  if (q.kind === 'client') return c.client;
  if (q.kind === 'framework') return c.framework === 'raw' ? 'the raw server' : rowOf(c);
  if (q.kind === 'cache') return c.tuned?.length ? `the ${c.tuned[0]} cache` : 'no cache';
  if (q.kind === 'write') return c.settings?.write ?? 'lua';
  return c.tuned?.length ? `with ${c.tuned.join(', ')}` : 'with defaults';
}

const where = (q: Question) =>
  q.kind === 'runtime'
    ? `For ${q.about}`
    : q.kind === 'client'
      ? `On ${q.about}`
      : q.kind === 'framework'
        ? `On ${q.about.replace(/: .*\+ /, ' + ')}`
        : `On ${q.about.split(':')[0]}`;

/** About how many more rounds would close an open comparison: its log interval narrows as 1/√rounds. */
export function roundsToClose(a: Answer, marginPct: number): number | null {
  const e = Math.abs(Math.log(a.ratio));
  const half = (Math.log(a.hi) - Math.log(a.lo)) / 2;
  if (!Number.isFinite(half) || half <= 0 || !a.rounds) return null;
  const toDecide = e > 0 ? a.rounds * (half / e) ** 2 : Infinity;
  const room = Math.log(1 + marginPct / 100) - e;
  const toBound = room > 0 ? a.rounds * (half / room) ** 2 : Infinity;
  const need = Math.min(toDecide, toBound);
  return Number.isFinite(need) ? Math.max(1, Math.ceil(need - a.rounds)) : null;
}

export function answerSentence(r: Results, a: Answer): string {
  const q = answersOf(r).questions.find((x) => x.id === a.question)!;
  const byName = new Map(r.contenders.map((c) => [c.name, c]));
  const label = (n: string) => labelIn(q, byName.get(n), n, r.settings.servers?.[0]);
  if (a.out) return `${where(q)}, ${label(a.a)} against ${label(a.b)}: not answered (${a.out}).`;
  if (a.verdict === 'faster') {
    const s = sides(a);
    return `${where(q)}, ${label(s.winner)} ${fasterText(s.factor, s.lo, s.hi, label(s.loser))}.`;
  }
  const interval = `${signedPct(a.lo)}…${signedPct(a.hi)}`;
  if (a.verdict === 'equal')
    return `${where(q)}, ${label(a.a)} and ${label(a.b)} are equal within ±${pct(bound(a))} (${label(a.a)} ÷ ${label(a.b)}: ${interval}).`;
  if (a.short) {
    const sofar = Number.isFinite(a.ratio) ? `${label(a.a)} ÷ ${label(a.b)} is ${a.ratio.toFixed(2)} so far, but ` : '';
    return `${where(q)}, ${label(a.a)} against ${label(a.b)}: undecided; ${sofar}${a.short}.`;
  }
  const more = roundsToClose(a, r.settings.target_ci_pct);
  return `${where(q)}, ${label(a.a)} against ${label(a.b)}: undecided, the interval is ${interval}${more ? ` (about ${more} more round${more > 1 ? 's' : ''} would close it)` : ''}.`;
}

/**
 * How the answers were tested: the moderated t and the prior it lent (older results: the paired t with a design
 * effect).
 */
function procedureText(r: Results, answers: Answer[]): string {
  if (!answers.some((a) => a.procedure)) {
    const des = answers.map((a) => a.design_effect).filter((x): x is number => Number.isFinite(x));
    const range = des.length ? `${Math.min(...des)}–${Math.max(...des)}` : '1';
    return `Each is a paired t-test on log req/s of windows paired by round, allowing for the design effect of windows that share a launch (${range})`;
  }
  const near = r.prior_side_by_side;
  const prior = (p: NonNullable<Results['prior']>) =>
    p.d0 === null
      ? `rounds agree, so each takes their pooled sd ${pct(p.s0)} per round on ${p.df} df`
      : `prior is sd ${pct(p.s0)} per round worth ${p.d0.toFixed(1)} df, from ${p.comparisons} comparisons`;
  const priors = !r.prior
    ? ''
    : near
      ? `, the prior's scale following whether a comparison's two apps are measured side by side (a framework against its raw server, a setting against its default): side by side the ${prior(near)}; apart the ${prior(r.prior)}`
      : `: the family's ${prior(r.prior)}`;
  return `Each is a moderated t (empirical Bayes, after limma) on the per-round mean of ln A − ln B, each comparison's variance shrunk toward the family's${priors}`;
}

/** "Decided 30 of 44 comparisons…": the family, its error rate and how it was spent. */
function familyLine(r: Results, answers: Answer[]): string {
  const n = (v: string) => answers.filter((a) => a.verdict === v && !a.out).length;
  const looks = r.looks ?? [];
  const pctOf = (x: number) => `${+(x * 100).toPrecision(2)}%`;
  const spending =
    looks.length > 1
      ? `${looks.length} looks: ${looks.length - 1} while racing at ${looks
          .slice(0, -1)
          .map((l) => pctOf(l.alpha))
          .join(', ')}, then the last at ${pctOf(looks.at(-1)!.alpha)}`
      : 'one look';
  return (
    `${answers.length} comparisons in ${answersOf(r).questions.length} questions, fixed before measuring: ${n('faster')} decided, ${n('equal')} equal within ±${r.settings.target_ci_pct}%, ${n('undecided')} open. ` +
    `${procedureText(r, answers)}, with the ratio's t interval; the chance of any false "faster" over the whole family is at most 5% ` +
    `(Holm within each look; ${spending}). "Equal" is two one-sided tests at the Bonferroni level of their look (Schuirmann): its interval, and an open one's, at 1 − 2α/m.`
  );
}

/** The run's own check that it can see a 10% difference. */
export function handicapLine(r: Results): string {
  return (r.handicap ?? [])
    .filter((h) => h.measured)
    .map((h) => {
      const m = h.measured!;
      const seen = h.detected ? 'detected' : 'NOT detected';
      // The sizings over the project's results: (1.1 × MAX_BUSY × W) − B (now), 1.1·W − B, 10% of W, 10% of the CPU per
      // request.
      const wall = h.wall_us_per_req;
      const busy = h.main_thread_us_per_req;
      const sized =
        wall !== undefined &&
        busy !== undefined &&
        Math.abs(h.us - burnUs({ wallUs: wall, mainUs: busy, cpuUs: h.cpu_us_per_req }, h.pct)) < 0.1
          ? `${(1 + h.pct / 100).toFixed(1)} × ${MAX_BUSY} × ${h.calibrated_on}'s ${wall.toFixed(0)} µs of wall time per request, less the ${busy.toFixed(0)} µs its event loop was busy`
          : wall !== undefined && Math.abs(h.us - (h.pct / 100) * wall) < 0.1
            ? `${h.pct}% of ${h.calibrated_on}'s ${wall.toFixed(0)} µs of wall time per request`
            : wall !== undefined && busy !== undefined
              ? `${h.calibrated_on}'s ${wall.toFixed(0)} µs per request grown by ${h.pct}%, less the ${busy.toFixed(0)} µs its event loop was busy`
              : `${h.pct}% of ${h.calibrated_on}'s ${h.cpu_us_per_req.toFixed(0)} µs`;
      return (
        `**Handicap check:** ${h.contender} burns ${h.us} µs of CPU per request (${sized}): injected ${signedPct(h.injected_ratio)} req/s, ` +
        `measured ${signedPct(m.ratio)} (${Number.isFinite(m.hi) ? `${signedPct(m.lo)}…${signedPct(m.hi)}` : 'no interval yet'}, ${(m.level * 100).toFixed(1)}%, ${m.rounds !== undefined ? `${m.rounds} rounds, ${m.pairs} window pairs` : `${m.pairs} window pairs`}): ${seen}; off by ${((m.ratio - h.injected_ratio) * 100).toFixed(1)} points.`
      );
    })
    .join('\n\n');
}

/** "a, b and c" */
const listed = (xs: string[]) => (xs.length > 1 ? `${xs.slice(0, -1).join(', ')} and ${xs.at(-1)}` : (xs[0] ?? ''));

/**
 * What a user acts on, per question of three or more (which client on a runtime, which runtime for
 * a stack): the members no other was decided faster than, after the same tested comparisons as
 * below (a comparison with the best, after Hsu, read off the family's pairwise answers, so it
 * carries their error rate). One left: the fastest; several: the fastest is among them.
 */
export function picks(r: Results): string[] {
  const { questions, answers } = answersOf(r);
  const byName = new Map(r.contenders.map((c) => [c.name, c]));
  return questions
    .filter((q) => q.members.length > 2)
    .flatMap((q) => {
      const mine = answers.filter((a) => a.question === q.id);
      if (!mine.length || mine.some((a) => a.out)) return [];
      const beaten = new Set(mine.filter((a) => a.verdict === 'faster').map((a) => sides(a).loser));
      const best = q.members.filter((m) => !beaten.has(m));
      const label = (n: string) => labelIn(q, byName.get(n), n, r.settings.servers?.[0]);
      const rest = q.members.filter((m) => beaten.has(m)).map(label);
      const slower = rest.length
        ? `; ${listed(rest)} ${rest.length > 1 ? 'are' : 'is'} decided slower than ${best.length > 1 ? 'one of them' : 'it'}`
        : '';
      const direct =
        best.length === 1 &&
        mine.filter((a) => a.verdict === 'faster' && sides(a).winner === best[0]).length === q.members.length - 1;
      return [
        best.length === 1
          ? `${where(q)}: **${label(best[0]!)}** is the fastest (${direct ? `decided faster than each of the other ${q.members.length - 1}` : `each of the other ${q.members.length - 1} was decided slower than another`}).`
          : `${where(q)}: the fastest is one of ${listed(best.map((b) => `**${label(b)}**`))}, not decided between them${slower}.`,
      ];
    });
}

/** The README's and report's opening: decided answers, then equivalences, then the open ones. */
export function answersSection(r: Results): string {
  const { answers } = answersOf(r);
  if (!answers.length) return '';
  const list = (xs: Answer[]) => xs.map((a) => `- ${answerSentence(r, a)}`).join('\n');
  const decided = answers
    .filter((a) => a.verdict === 'faster' && !a.out)
    .sort((x, y) => Math.abs(Math.log(y.ratio)) - Math.abs(Math.log(x.ratio)));
  const equal = answers.filter((a) => a.verdict === 'equal' && !a.out);
  const open = answers.filter((a) => a.verdict === 'undecided' || a.out);
  const best = picks(r);
  return [
    '**What to pick** (default settings)',
    familyLine(r, answers),
    best.length && `**The fastest, per question**\n\n${best.map((x) => `- ${x}`).join('\n')}`,
    decided.length && `**Decided**\n\n${list(decided)}`,
    equal.length && `**Equal within a bound**\n\n${list(equal)}`,
    open.length && `**Open**\n\n${list(open)}`,
    handicapLine(r),
  ]
    .filter(Boolean)
    .join('\n\n');
}

/** For each setting question: on ÷ off with its verdict (the same answers as above). */
export function settingsTable(r: Results): string {
  const rows = answersOf(r).answers.filter((a) => a.question.startsWith('setting: '));
  if (!rows.length) return '';
  const byName = new Map(r.contenders.map((c) => [c.name, c]));
  const head =
    '| setting | runtime | framework | client | on ÷ off (interval, level) | rounds | answer |\n|---|---|---|---|---:|---:|---|';
  const body = rows.map((a) => {
    const on = byName.get(a.a);
    const verdict =
      a.out || !a.pairs
        ? `not answered (${a.out ?? 'no pairs'})`
        : a.verdict === 'faster'
          ? a.ratio >= 1
            ? 'faster'
            : 'slower'
          : a.verdict === 'equal'
            ? `equal within ±${pct(bound(a))}`
            : 'undecided';
    // An interval too wide to exist is stored as 0…null (JSON has no Infinity).
    const f = (x: number | null) => (Number.isFinite(x) ? x!.toFixed(2) : '∞');
    return `| ${on?.tuned?.join(', ')} | ${on?.runtime} | ${on ? rowOf(on) : ''} | ${on?.client} | ${f(a.ratio)} (${f(a.lo)}–${f(a.hi)}, ${(a.level * 100).toFixed(2)}%) | ${a.rounds} | ${verdict} |`;
  });
  return `**Settings: each against the same stack with defaults** (ratio of windows paired by round; the same family as "what to pick")\n\n${[head, ...body].join('\n')}`;
}
