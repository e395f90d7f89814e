// The answer first: each comparison of the family in plain words, decided ones first, then the
// equivalences, then the open ones with what would close them; and the run's own handicap check.
import { CACHES, type CacheName } from '@bench/stream';
import type { Analysis, AnswerFigures, Fastest, HandicapFigures } from '../answers/analysis';
import { isBase, rowOf, type Question } from '../model/questions';
import type { ContenderResult, PairDesign, Results } from '../model/results';
import { poolProcedureText, poolSuffix, spansMachines } from './across-runs';
import { asFactor, levelText, onSomeMachines } from './words';

/** A percentage, with a decimal where whole numbers would print 0%: "(0.3%–14%)", not "(0%–14%)". */
export const pct = (x: number) => `${(x * 100).toFixed(Math.abs(x) < 0.005 && x !== 0 ? 1 : 0)}%`;
const signedPct = (ratio: number) => `${ratio >= 1 ? '+' : '−'}${pct(Math.abs(ratio - 1))}`;

/**
 * "serves 1.8× what X does (1.6–2.0×)" from 1.5× on, "is faster than X by 23% (15–31%)" below. `over`: what the
 * interval spans where it is not one estimate's (" over its machines").
 */
export function fasterText(factor: number, lo: number, hi: number, loser: string, over = ''): string {
  return asFactor(factor)
    ? `serves ${factor.toFixed(1)}× what ${loser} does (${lo.toFixed(1)}–${hi.toFixed(1)}×${over})`
    : `is faster than ${loser} by ${pct(factor - 1)} (${pct(lo - 1)}–${pct(hi - 1)}${over})`;
}

/**
 * A pooled answer measured on two machines or more gives their ratios' geometric mean, a description, and the
 * envelope of their intervals (answers/where.ts): its interval says it spans the machines.
 */
const overMachines = (a: AnswerFigures) => (spansMachines(a) ? ' over its machines' : '');

/** A cache as its answers name it; one that is not exact (ttl) says so, beside the exact ones it is weighed against. */
const cacheLabel = (c: ContenderResult) => {
  const cache = c.settings?.cache;
  const exact = !cache || !(cache in CACHES) || CACHES[cache as CacheName].exact;
  return `the ${c.tuned![0]} cache${exact ? '' : ' (not exact: stale up to its bound)'}`;
};

/** How a member reads inside its question: the runtime, the client, the framework row, or the setting. */
function labelIn(q: Question, c: ContenderResult | undefined, name: string, firstServer = 'redis'): string {
  if (!c) return name;
  if (q.kind === 'server') return c.server ?? firstServer;
  if (q.kind === 'runtime') return c.runtime;
  if (q.kind === 'client') return c.client;
  if (q.kind === 'framework') return c.framework === 'raw' ? 'the raw server' : rowOf(c);
  if (q.kind === 'cache') return c.tuned?.length ? cacheLabel(c) : 'no cache';
  if (q.kind === 'write') return c.settings?.write ?? 'lua';
  if (q.kind === 'yours') return name;
  return c.tuned?.length ? `with ${c.tuned.join(', ')}` : 'with defaults';
}

/** "For bun (raw server)", "On node + fastify": where a question's sentences start. */
export const where = (q: Question) =>
  q.kind === 'runtime'
    ? `For ${q.about}`
    : q.kind === 'client'
      ? `On ${q.about}`
      : q.kind === 'framework'
        ? `On ${q.about.replace(/: .*\+ /, ' + ')}`
        : q.kind === 'yours'
          ? 'Your app'
          : `On ${q.about.split(':')[0]}`;

/** Each member of a question as its sentences name it. */
export function labeller(an: Analysis, q: Question): (name: string) => string {
  const r = an.results;
  const byName = new Map(r.contenders.map((c) => [c.name, c]));
  return (n) => labelIn(q, byName.get(n), n, r.settings.servers?.[0]);
}

export function answerSentence(an: Analysis, a: AnswerFigures): string {
  const sentence = ownSentence(an, a);
  return a.pool ? `${sentence.slice(0, -1)}${poolSuffix(a)}.` : sentence;
}

function ownSentence(an: Analysis, a: AnswerFigures): string {
  const q = an.questions.find((x) => x.id === a.question)!;
  const label = labeller(an, q);
  const them = `${where(q)}, ${label(a.a)} against ${label(a.b)}`;
  if (a.out) return `${them}: not answered (${a.out}).`;
  if (a.verdict === 'faster') {
    const s = a.sides;
    return `${where(q)}, ${label(s.winner)} ${fasterText(s.factor, s.lo, s.hi, label(s.loser), overMachines(a))}.`;
  }
  const interval = `${signedPct(a.lo)}…${signedPct(a.hi)}${overMachines(a)}`;
  if (a.verdict === 'equal')
    return (
      `${where(q)}, ${label(a.a)} and ${label(a.b)} are equal within ±${pct(a.bound)} ` +
      `(${label(a.a)} ÷ ${label(a.b)}: ${interval}).`
    );
  if (a.short) {
    const ratio = `${label(a.a)} ÷ ${label(a.b)}`;
    const mean = spansMachines(a) ? " (its machines' geometric mean)" : '';
    const sofar = Number.isFinite(a.ratio) ? `${ratio} is ${a.ratio.toFixed(2)}${mean} so far, but ` : '';
    return `${them}: open; ${sofar}${a.short}.`;
  }
  const more = a.roundsToClose;
  const close = more ? ` (about ${more} more round${more > 1 ? 's' : ''} would close it)` : '';
  return `${them}: open, the interval is ${interval}${close}.`;
}

/**
 * How the answers were tested: the moderated t and the prior it lent, or (answers recorded without a procedure) the
 * paired t with a design effect.
 */
function procedureText(an: Analysis): string {
  const { answers } = an;
  if (!answers.some((a) => a.procedure)) {
    const des = answers.map((a) => a.design_effect).filter((x): x is number => Number.isFinite(x));
    const range = des.length ? `${Math.min(...des)}–${Math.max(...des)}` : '1';
    return (
      'Each is a paired t-test on log req/s of windows paired by round, ' +
      `allowing for the design effect of windows that share a launch (${range})`
    );
  }
  const near = an.priorSideBySide;
  const prior = (p: NonNullable<Results['prior']>) =>
    p.d0 === null
      ? `rounds agree, so each takes their pooled sd ${pct(p.s0)} per round on ${p.df} df`
      : // One comparison (or variances too spread to pool) gives no prior: each its own sd, on its own df.
        !Number.isFinite(p.s0) || !(p.d0 > 0)
        ? `prior is none (from ${p.comparisons} comparison${p.comparisons === 1 ? '' : 's'}): each comparison ` +
          'takes its own sd on its own df'
        : `prior is sd ${pct(p.s0)} per round worth ${p.d0.toFixed(1)} df, from ${p.comparisons} comparisons`;
  const priors = !an.prior
    ? ''
    : near
      ? ", the prior's scale following whether a comparison's two apps are measured side by side " +
        `(a framework against its raw server, a setting against its default): side by side the ${prior(near)}; ` +
        `apart the ${prior(an.prior)}`
      : `: the family's ${prior(an.prior)}`;
  return `Each is tested on the per-round mean of ln A − ln B with ${an.procedures['moderated-t'].sentence}${priors}`;
}

/** "Decided 30 of 44 comparisons…": the family, its error rate and how it was spent. */
function familyLine(an: Analysis): string {
  const { results: r, answers } = an;
  const n = (v: string) => answers.filter((a) => a.verdict === v && !a.out).length;
  // The answers a failed contender left without one: counted, so the parts add up to the family.
  const out = answers.filter((a) => a.out).length;
  const notAnswered = out ? `, ${out} not answered (a contender failed)` : '';
  if (an.pool)
    return (
      `${answers.length} comparisons in ${an.questions.length} questions, fixed before measuring: ` +
      `${n('faster')} decided, ${n('equal')} equal within ±${an.pool.margin_pct}%, ` +
      `${n('undecided')} open${notAnswered}. ` +
      `${poolProcedureText(an)}. So the chance of any false "faster" or "equal", on any machine or across them, ` +
      `at this keep or any other, is at most ${+(an.pool.alpha * 100).toPrecision(2)}%` +
      `${an.pool.picks ? ", and with the first screen's picks at most 5%" : ''}. ` +
      '"Equal" is two one-sided tests at α/m each (α the machine\'s, m its comparisons measured on enough boots): ' +
      "its interval at 1 − 2α/m; an open one's at 1 − α/n (n its comparisons measured there, n ≥ m), which " +
      'holds 1 since "faster" asks p < α/m (one measured on one boot everywhere gives none).'
    );
  const looks = r.looks ?? [];
  const pctOf = (x: number) => `${+(x * 100).toPrecision(2)}%`;
  const spending =
    looks.length > 1
      ? `${looks.length} looks: ${looks.length - 1} while racing at ${looks
          .slice(0, -1)
          .map((l) => pctOf(l.alpha))
          .join(', ')}, then the last at ${pctOf(looks.at(-1)!.alpha)}`
      : 'one look';
  const fasterAt = an.stepDown?.answers ? "Holm's first step" : 'where "faster" is decided';
  return (
    `${answers.length} comparisons in ${an.questions.length} questions, fixed before measuring: ` +
    `${n('faster')} decided, ${n('equal')} equal within ±${r.settings.target_ci_pct}%, ` +
    `${n('undecided')} open${notAnswered}. ` +
    `${procedureText(an)}, with the ratio's t interval; ` +
    (an.stepDown?.answers
      ? 'the chance of any false "faster" over the whole family is at most 5% ' +
        `(Holm's step-down within each look, as results written by earlier versions decided them; ${spending}; ` +
        'with "equal" beside it, the two together are not held to 5%: the method, "Why not Holm\'s step-down"). '
      : 'the chance of any false "faster" or "equal" over the whole family is at most 5% ' +
        `("faster" at α/m within each look, as "equal" is; ${spending}). `) +
    '"Equal" is two one-sided tests at the Bonferroni level of their look (Schuirmann): ' +
    (an.openAtEquals
      ? "its interval, and an open one's, at 1 − 2α/m (as results written by earlier versions state them)."
      : `its interval at 1 − 2α/m; an open one's at 1 − α/m, ${fasterAt}, so it holds 1.`)
  );
}

/** How the burn was sized, in words (analysis.ts tells which rule sized it). */
function sizedText(f: HandicapFigures): string {
  const { check: h, sizing, maxBusy } = f;
  // Results from before wall and busy time were recorded: pct of the CPU per request.
  if (sizing === 'cpu') return `${h.pct}% of ${h.calibrated_on}'s ${h.cpu_us_per_req.toFixed(0)} µs`;
  const wall = h.wall_us_per_req!;
  const busy = h.main_thread_us_per_req!;
  const of = `of ${h.calibrated_on}'s ${wall.toFixed(0)} µs of wall time per request`;
  const wait = h.main_thread_wait_us_per_req ?? 0;
  const waited = wait ? ` and waited ${wait.toFixed(0)} µs for a CPU` : '';
  const loop = `its event loop was busy ${busy.toFixed(0)} µs of it${waited}`;
  if (sizing === 'most') return `${2 * h.pct}% ${of}, the most a burn gets (${loop})`;
  if (sizing === 'least') return `${h.pct / 2}% ${of}, the least a burn gets (${loop})`;
  const fill =
    `${+(1 + h.pct / 100).toFixed(3)} × ${maxBusy} × ${h.calibrated_on}'s ${wall.toFixed(0)} µs of wall time ` +
    `per request, less the ${busy.toFixed(0)} µs its event loop was busy`;
  if (sizing === 'busy' && wait)
    return (
      `${fill} and the ${wait.toFixed(0)} µs it waited for a CPU, times its share of a CPU while runnable ` +
      `(${(busy / (busy + wait)).toFixed(3)})`
    );
  if (sizing === 'busy') return fill;
  if (sizing === 'loop')
    return (
      `${+((100 * h.us) / wall).toFixed(1)}% ${of}, which slows by ${h.pct}% a loop taken ` +
      `${Math.round(100 * f.loopShare!)}% of the time (${loop})`
    );
  if (sizing === 'wall') return `${h.pct}% of ${h.calibrated_on}'s ${wall.toFixed(0)} µs of wall time per request`;
  return (
    `${h.calibrated_on}'s ${wall.toFixed(0)} µs per request grown by ${h.pct}%, ` +
    `less the ${busy.toFixed(0)} µs its event loop was busy`
  );
}

/** Which of its windows the default run's check was judged on, how, and why. */
function designText(d: PairDesign, m: CheckFigures): string {
  // Its test's parenthesis, closed after the design's reasons when its duets were not tested.
  const judged =
    m.procedure === 'covariate-t'
      ? 'judged on its windows alone, at an equal share of time its event loops waited for a CPU (least squares on ' +
        `that share, each launch a unit; slope ${m.covariate!.slope.toFixed(2)}, correlation ` +
        `${m.covariate!.corr.toFixed(2)}; without it, signed-rank: ${ratioText(m.covariate!.unadjusted)}`
      : m.procedure === 'signed-rank'
        ? 'judged on its windows alone (signed-rank, each launch a unit'
        : m.procedure === 'moderated-t'
          ? 'judged as an answer is, on its windows in the cycle ' +
            "(moderated t with the family's prior, each round a unit"
          : 'judged on its windows alone, as the side-by-side answers are (moderated t';
  const on =
    d.chosen === 'duet'
      ? `${judged}), its duet windows, both apps under load at once, tested beside it (signed-rank, each launch a unit`
      : judged;
  const bias = d.bias
    ? `; bias check, duet − alternating: ${signedPct(Math.exp(d.bias.mean))} (${signedPct(Math.exp(d.bias.lo))}…` +
      `${signedPct(Math.exp(d.bias.hi))}, ${d.bias.rounds} rounds)`
    : '';
  const sc = d.scale;
  const scale = !sc
    ? ''
    : sc.corr < 0.5
      ? `; scale check: the launches varied too little to tell (correlation ${sc.corr.toFixed(2)}, ${sc.rounds} rounds)`
      : `; scale check: a duet showed ${sc.slope.toFixed(2)}× of a launch's difference alone ` +
        `(correlation ${sc.corr.toFixed(2)}, ${sc.rounds} rounds)`;
  return `${on}; ${d.why}${bias}${scale})`;
}

type CheckFigures = NonNullable<HandicapFigures['check']['other']>;

const ratioText = (r: { ratio: number; lo: number; hi: number; p: number }) =>
  `${signedPct(r.ratio)} (${signedPct(r.lo)}…${signedPct(r.hi)}), p ${r.p < 0.001 ? '< 0.001' : r.p.toFixed(3)}`;

/** A test's interval, level and units (the default run's check: on its windows alone, or its duets beside). */
function testText(m: CheckFigures): string {
  const interval = Number.isFinite(m.hi) ? `${signedPct(m.lo)}…${signedPct(m.hi)}` : 'no interval yet';
  const launches = m.launches !== undefined ? `, ${m.launches} launches` : '';
  const pairs =
    m.rounds !== undefined ? `${m.rounds} rounds${launches}, ${m.pairs} window pairs` : `${m.pairs} window pairs`;
  const on = m.on === 'alternate' ? ', its windows alone' : '';
  return `${interval}, ${levelText(m.level)}, ${pairs}${on}`;
}

/** The run's own check that it can see a 10% difference. */
export function handicapLine(an: Analysis): string {
  return an.handicap
    .map((f) => {
      const h = f.check;
      const m = h.measured;
      const seen = h.detected ? 'detected' : 'NOT detected';
      const other = h.other ? `; in its duets ${signedPct(h.other.ratio)} (${testText(h.other)})` : '';
      // A --handicap pair decided on duets showing a share of a difference alone: its size alone was injected.
      const k = isBase(h.compared_with ?? '') ? an.aloneScale : null;
      const alone = (x: number) => (k ? k.of(x) : x);
      const aloneText = k
        ? `; alone about ${signedPct(alone(m.ratio))} (${signedPct(alone(m.lo))}…${signedPct(alone(m.hi))}), ` +
          `at the scale check's ${k.k.toFixed(2)}×`
        : '';
      return (
        `**Handicap check:** ${h.contender} burns ${h.us} µs of CPU per request (${sizedText(f)}): ` +
        `injected ${signedPct(h.injected_ratio)} req/s, ` +
        `measured ${signedPct(m.ratio)} (${testText(m)})${other}${aloneText}: ` +
        `${seen}; ` +
        `off by ${(Math.abs(alone(m.ratio) - h.injected_ratio) * 100).toFixed(1)} points${k ? ' alone' : ''}.` +
        powerText(m) +
        (h.design ? ` Measured both ways; ${designText(h.design, m)}.` : '') +
        diagnosticsText(m) +
        (h.cpu
          ? ` Its CPU per request in the same duets: ${signedPct(h.cpu.ratio)} (${signedPct(h.cpu.lo)}…` +
            `${signedPct(h.cpu.hi)}): ${h.cpu.seen ? 'seen' : 'not seen'}.`
          : '') +
        burnNotFollowed(h)
      );
    })
    .join('\n\n');
}

/**
 * A miss the run had the rounds to see, its CPU per request showing the burn: the burn reached the app and its req/s
 * did not follow it, so the miss says how this machine turns CPU into req/s, not that the run was short.
 */
function burnNotFollowed(h: HandicapFigures['check']): string {
  const p = h.measured.power;
  if (h.detected || !h.cpu?.seen || !p || p.rounds_for_target > (h.measured.rounds ?? 0)) return '';
  return (
    ' Missed though the run had the rounds to see it, and its CPU per request shows the burn: the burn reached the ' +
    'app, and its req/s did not follow it on this machine.'
  );
}

/**
 * What the run could see (HandicapCheck measured.power): its test's chance of detecting the injected size at the se it
 * measured, and the rounds that would make it the target's.
 */
function powerText(m: CheckFigures): string {
  const p = m.power;
  if (!p || m.se === undefined) return '';
  const more =
    p.rounds_for_target > (m.rounds ?? 0)
      ? `${(p.target * 100).toFixed(0)}% takes about ${p.rounds_for_target} rounds (this run: ${m.rounds}; ` +
        'a longer `--budget` buys rounds)'
      : `this run had the rounds for ${(p.target * 100).toFixed(0)}%`;
  return (
    ` At the se it measured (${(m.se * 100).toFixed(1)}%), a run sees the injected size with a chance of about ` +
    `${(p.chance * 100).toFixed(0)}%; ${more}.`
  );
}

/**
 * The check judged other ways on the same windows, said beside its verdict: signed-rank over its launches, and at an
 * equal CPU wait (least squares on that covariate, which the burn itself moves).
 */
function diagnosticsText(m: CheckFigures): string {
  const d = m.diagnostics ?? [];
  if (!d.length) return '';
  const each = d.map((x) => {
    const how =
      x.procedure === 'moderated-t'
        ? `as an answer, on all its ${x.pairs} window pairs alone`
        : x.procedure === 'signed-rank'
          ? 'signed-rank over its launches'
          : `at an equal CPU wait (covariate-t, slope ${x.slope!.toFixed(2)}, correlation ${x.corr!.toFixed(2)}; ` +
            'the burn moves the wait, so this leans toward the injected size)';
    return `${how}: ${ratioText(x)}, ${x.detected ? 'detected' : 'not detected'}`;
  });
  return ` Beside it, never its verdict: ${each.join('; ')}.`;
}

/** "a, b and c" */
const listed = (xs: string[]) => (xs.length > 1 ? `${xs.slice(0, -1).join(', ')} and ${xs.at(-1)}` : (xs[0] ?? ''));

/** One question's fastest in a sentence: one left, the fastest; several, the fastest is among them. */
function fastestSentence(an: Analysis, { question: q, best, beaten, direct }: Fastest): string {
  const label = labeller(an, q);
  const rest = beaten.map(label);
  const others = q.members.length - 1;
  if (best.length === 1) {
    const how = direct
      ? `decided faster than each of the other ${others}`
      : `each of the other ${others} was decided slower than another`;
    return `${where(q)}: **${label(best[0]!)}** is the fastest (${how}).`;
  }
  const than = best.length > 1 ? 'one of them' : 'it';
  const slower = rest.length ? `; ${listed(rest)} ${rest.length > 1 ? 'are' : 'is'} decided slower than ${than}` : '';
  const among = listed(best.map((b) => `**${label(b)}**`));
  const between = betweenBest(an, q, best, label);
  if (between.every((x) => x.equal))
    return `${where(q)}: the fastest are ${among}, ${between.map((x) => x.text).join('; ')}${slower}.`;
  return `${where(q)}: the fastest is one of ${among} (${between.map((x) => x.text).join('; ')})${slower}.`;
}

/** Each pair among a question's fastest, as its one answer says: equal within a bound, or open. */
/** ": faster on Intel Xeon, open on AMD EPYC" where machines decided it apart, else " open". */
const machinesSaid = (a: AnswerFigures) => (onSomeMachines(a) ? `: ${onSomeMachines(a)}` : ' open');

function betweenBest(
  an: Analysis,
  q: Question,
  best: string[],
  label: (name: string) => string,
): { equal: boolean; text: string }[] {
  const solo = best.length === 2;
  return an.answers
    .filter((a) => a.question === q.id && best.includes(a.a) && best.includes(a.b))
    .map((a) =>
      a.verdict === 'equal' && !a.out
        ? { equal: true, text: `${solo ? '' : `${label(a.a)} and ${label(a.b)} `}equal within ±${pct(a.bound)}` }
        : { equal: false, text: `${label(a.a)} against ${label(a.b)}${machinesSaid(a)}` },
    );
}

/**
 * What a user acts on, per question of three or more (which client on a runtime, which runtime for
 * a stack): the members no other was decided faster than, read off the family's pairwise answers
 * (analysis.ts), so it carries their error rate.
 */
export const picks = (an: Analysis): string[] => an.fastest.map((f) => fastestSentence(an, f));

/** "45m", "1h30m": a budget as --budget takes it. */
const budgetText = (s: number) => {
  const m = Math.round(s / 60);
  return m >= 60 && m % 60 ? `${Math.floor(m / 60)}h${m % 60}m` : m >= 60 ? `${m / 60}h` : `${m}m`;
};

/**
 * A run whose noise is well above the reference run's says so first: its sd between windows against the quietest
 * kept run's (answers/noise.ts referenceOf), what it answered, and about what a longer budget would answer on this
 * machine (analysis.ts prices it).
 */
export function noiseLine(an: Analysis): string {
  const n = an.noise;
  const ref = n?.reference;
  // Well above the reference run's noise only (a machine as noisy as its reference is said in the README's machine
  // line); and not on a pooled view, whose answers are not the run's own counts.
  if (!n?.aboveReference || !ref || an.pool) return '';
  const longer =
    n.wouldAnswer === null
      ? ''
      : `; on this machine \`--budget ${budgetText(n.budgetS)}\` would answer about ${n.wouldAnswer}, ` +
        "from this run's own variance and the rounds that budget adds";
  const where = ref.sameKind ? 'on the same kind of machine' : `on ${ref.machine}`;
  return (
    `**A noisy run:** the sd between windows of one round is ${pct1(n.sdWindows)}, against ` +
    `${pct1(ref.sdWindows)} in the quietest kept run ` +
    `(${ref.startedAt.slice(0, 10)}, ${ref.commit.slice(0, 7)}) ${where}: ` +
    `${n.answered} of ${n.of} comparisons answered (decided or equal)${longer}.`
  );
}
const pct1 = (x: number) => `${(x * 100).toFixed(1)}%`;

/** The README's and report's opening: decided answers, then equivalences, then the open ones. */
export function answersSection(an: Analysis): string {
  const { answers } = an;
  if (!answers.length) return '';
  const list = (xs: AnswerFigures[]) => xs.map((a) => `- ${answerSentence(an, a)}`).join('\n');
  const decided = answers
    .filter((a) => a.verdict === 'faster' && !a.out)
    .sort((x, y) => Math.abs(Math.log(y.ratio)) - Math.abs(Math.log(x.ratio)));
  const equal = answers.filter((a) => a.verdict === 'equal' && !a.out);
  const open = answers.filter((a) => a.verdict === 'undecided' || a.out);
  const best = picks(an);
  return [
    noiseLine(an),
    // Under the picks table (sections.ts), these are every answer beside it; without one, they are the pick.
    an.picks ? '**Every answer** (default settings)' : '**What to pick** (default settings)',
    familyLine(an),
    best.length && `**The fastest, per question**\n\n${best.map((x) => `- ${x}`).join('\n')}`,
    decided.length && `**Decided**\n\n${list(decided)}`,
    equal.length && `**Equal within a bound**\n\n${list(equal)}`,
    open.length && `**Open**\n\n${list(open)}`,
    handicapLine(an),
  ]
    .filter(Boolean)
    .join('\n\n');
}

/** A setting's answer in the table's last column. */
function settingVerdict(a: AnswerFigures): string {
  if (a.out || (!a.pairs && !a.pool)) return `not answered (${a.out ?? 'no pairs'})`;
  if (a.verdict === 'faster') return a.ratio >= 1 ? 'faster' : 'slower';
  return a.verdict === 'equal' ? `equal within ±${pct(a.bound)}` : 'open';
}

/** For each setting question: on ÷ off with its verdict (the same answers as above). */
export function settingsTable(an: Analysis): string {
  const rows = an.answers.filter((a) => a.question.startsWith('setting: '));
  if (!rows.length) return '';
  const byName = new Map(an.results.contenders.map((c) => [c.name, c]));
  // A pooled answer rests on runs (answers/across-runs.ts), each its own rounds.
  const pooled = rows.some((a) => a.pool);
  const head =
    `| setting | runtime | framework | client | on ÷ off (interval, level) | ${pooled ? 'runs' : 'rounds'} ` +
    '| answer |\n' +
    '|---|---|---|---|---:|---:|---|';
  // An interval too wide to exist is stored as 0…null (JSON has no Infinity).
  const f = (x: number | null) => (Number.isFinite(x) ? x!.toFixed(2) : '∞');
  const body = rows.map((a) => {
    const on = byName.get(a.a);
    // As its sentence: an answer too short for an interval (one boot, say) shows its ratio and why, no interval.
    const ratio = a.short
      ? `${f(a.ratio)} (${a.short})`
      : `${f(a.ratio)} (${f(a.lo)}–${f(a.hi)}${overMachines(a)}, ${levelText(a.level)})`;
    return (
      `| ${on?.tuned?.join(', ')} | ${on?.runtime} | ${on ? rowOf(on) : ''} | ${on?.client} | ` +
      `${ratio} | ${a.rounds} | ${settingVerdict(a)} |`
    );
  });
  // Published, the first screen's picks are a family of their own; the settings are in the answers' family.
  const how =
    (pooled ? 'pooled over the kept runs' : 'ratio of windows paired by round') +
    (an.picks
      ? '; the same family as "Every answer", not the first screen\'s picks'
      : '; the same family as "what to pick"');
  return `**Settings: each against the same stack with defaults** (${how})\n\n${[head, ...body].join('\n')}`;
}
