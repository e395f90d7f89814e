// The published answers' provenance: the kept runs they pool (answers/across-runs.ts), the ones left out and why, and
// where the answers hold (on every machine measured, or depending on it).
import type { Analysis, AnswerFigures } from '../answers/analysis';
import { atDefault, type Holds, type PoolResult, type PoolRun, saidOn } from '../model/across-runs';
import { asFactor, contendedOf, listed, term } from './words';
import { isBase } from '../model/questions';
import { hostCpu, hostCpuTag, machineDifference, machineNames, NOISY_SD } from '../model/kept';

const pct1 = (x: number) => `${(x * 100).toFixed(1)}%`;
const signed = (r: number) => `${r >= 1 ? '+' : '−'}${pct1(Math.abs(r - 1))}`;

/** " [2 runs on AMD EPYC, 3 on Intel Xeon, τ 1.2% between boots: holds on every machine measured (…)]". */
export function poolSuffix(a: AnswerFigures): string {
  const p = a.pool;
  if (!p) return '';
  // The runs on each machine (each configuration), as the words name them: "6 runs on Intel Xeon, 3 on AMD EPYC".
  const split = (o: { placement: string; default_placement?: string }) => (atDefault(o) ? 0 : 1);
  const on = p.on_machines.length
    ? [...p.on_machines]
        .sort((x, y) => split(x) - split(y))
        .map((o, i) => `${o.runs}${i ? '' : ` run${o.runs === 1 ? '' : 's'}`} on ${o.name}`)
        .join(', ')
    : `${p.runs} run${p.runs === 1 ? '' : 's'}`;
  // In the sentence's own terms: a decided answer names the faster side first.
  const flip = a.verdict === 'faster' && a.ratio < 1;
  const [lo, hi] = p.prediction
    ? flip
      ? [1 / p.prediction.hi, 1 / p.prediction.lo]
      : [p.prediction.lo, p.prediction.hi]
    : [];
  const range = (x: number, y: number) => {
    if (asFactor(x)) return `${x.toFixed(1)}–${y.toFixed(1)}×`;
    return `${signed(x)}…${signed(y)}`;
  };
  const pi = lo !== undefined && hi !== undefined ? `; on a machine not measured: ${range(lo, hi)}` : '';
  return ` [${on}, τ ${pct1(p.tau)} between boots: ${flip ? flipWords(p.where) : p.where}${pi}]`;
}

/** The words in the sentence's order (b first): "faster" on a machine is then "slower", and back. */
const flipWords = (w: string) =>
  w.replace(/\b(faster|slower) on\b/g, (_, x: string) => `${x === 'faster' ? 'slower' : 'faster'} on`);

/** How the pooled answers were tested, in the family line's words. */
export function poolProcedureText(an: Analysis): string {
  const p = an.pool!;
  const pct = (x: number) => `${+(x * 100).toPrecision(2)}%`;
  return (
    'Each is decided on each machine apart (a machine is a CPU model, CPU count and architecture; a CPU placement ' +
    "other than the one a default run takes there is answered apart): the machine's kept runs, each run's mean " +
    'ln A − ln B over all its rounds with its moderated ' +
    "t's standard error, the runs of one boot merged into one (a boot is one draw of the run effect; a run that " +
    "recorded no boot id shares the boot of its machine's run of the same kernel build less than 24 h before or " +
    'after it), pooled with a run effect between boots whose sd each comparison learns from its own boots, from a ' +
    `stated prior (half-normal, scale ${pct(p.run_prior.scale)}); a machine measured on fewer than ` +
    `${p.run_prior.min_boots} boots is not decided on. This is keep ${p.keeps} of these ` +
    `inputs: it spends α ${pct(p.spent)} (α / (k (k + 1)) of the answers' α, ${pct(p.alpha)}${shareOf(p)}; ` +
    `at most ${pct(p.alpha)} over every keep), ${splitOf(p, pct)}. ` +
    '"Holds on every machine measured": decided the same way on each (an intersection–union test); ' +
    'no average over machines is decided'
  );
}

/** ": their share of the page's 5%, …" where the first screen's picks (pooled beside them) take the rest of it. */
const shareOf = (p: Pick<PoolResult, 'picks'>) =>
  p.picks ? ": their share of the page's 5%, the first screen's picks having the rest" : '';

/**
 * "2 machines", or "3 configurations (2 machines and 1 other placement)" when a placement is answered apart (a machine
 * measured at another placement only is a configuration, not one of the machines); then those measured on too few
 * boots to decide, which take no share.
 */
function splitOf(
  p: Pick<PoolResult, 'configurations' | 'machines' | 'deciding' | 'per_machine'>,
  pct: (x: number) => string,
): string {
  const s = (n: number) => (n === 1 ? '' : 's');
  const deciding = p.deciding ?? p.configurations;
  const all =
    p.configurations === p.machines
      ? `${p.machines} machine${s(p.machines)}`
      : `${p.configurations} configurations (${p.machines} machine${s(p.machines)} and ` +
        `${p.configurations - p.machines} other placement${s(p.configurations - p.machines)})`;
  if (!deciding)
    return (
      'to be split over those measured on enough boots to decide, α/m for each comparison inside each: ' +
      `none of the ${all} yet, so nothing is decided`
    );
  const over = deciding === p.configurations ? all : `the ${deciding} of ${all} measured on enough boots to decide`;
  return `split over ${over} (${pct(p.per_machine)} each), α/m for each comparison inside each`;
}

/** The answers where each holds, as pool.json and an analysis both carry them. */
type Placed = {
  answers: {
    pool?: { holds: Holds; on_machines?: { machine: string; placement: string; default_placement?: string }[] };
  }[];
  machines: number;
};
const countOf = (x: Placed, h: Holds) => x.answers.filter((a) => a.pool?.holds === h).length;
/** The machines an answer was measured on at the default placement (where.ts words it from them). */
const machinesOf = (a: Placed['answers'][number]) =>
  new Set((a.pool?.on_machines ?? []).filter(atDefault).map((m) => m.machine)).size;

/**
 * Whether a pooled answer's figures span machines: measured on two or more of those where.ts words it from (its
 * machines at their default placement, or every configuration where none is), its ratio is their geometric mean, a
 * description, and its interval the envelope of theirs.
 */
export function spansMachines(a: Placed['answers'][number]): boolean {
  const on = a.pool?.on_machines ?? [];
  const own = on.filter(atDefault);
  return new Set((own.length ? own : on).map((m) => m.machine)).size > 1;
}

/**
 * "18 decided the same way on every machine measured, 11 on some machines only, 0 reverse, 18 open on every one":
 * results.md's and `npm run pool`'s words. Of a pool of several machines, an answer only one of them measured is said
 * apart ("1 decided on the one machine that measured it"): it holds on every machine measured, but that is one.
 */
export function whereCounts(x: Placed): string {
  const depends = countOf(x, 'depends on the machine');
  const reverses = countOf(x, 'reverses');
  const holds = x.answers.filter((a) => a.pool?.holds === 'holds on every machine measured');
  if (x.machines === 1) return `${holds.length} decided on the one machine measured`;
  const onOne = holds.filter((a) => machinesOf(a) === 1).length;
  return (
    `${holds.length - onOne} decided the same way on every machine measured, ` +
    `${onOne ? `${onOne} on the one machine that measured it, ` : ''}${depends} ` +
    `on some machines only (open on the others), ${reverses} reverse${reverses === 1 ? 's' : ''}, ` +
    `${countOf(x, 'open')} open on every machine`
  );
}

/** " Each machine left out in turn: …": how the machine left out decides what the others hold everywhere. */
function looText(p: Pick<PoolResult, 'leave_one_out'>): string {
  const l = p.leave_one_out;
  if (!l?.length) return '';
  const name = machineNames(l.map((x) => x.machine));
  const each = l.map(
    (x) =>
      `left out, ${name(x.machine)} decides the others' ${x.claims} "holds on every machine measured" ` +
      `claims the same way ${x.same} times, leaves ${x.open} open and reverses ${x.other_way}`,
  );
  // The others are pooled on their own, α split over fewer machines: they may claim more than the whole pool does.
  return ` Each machine left out in turn (the others pooled without it, at their own level): ${each.join('; ')}.`;
}

/** ", 16 of 47 answered": a configuration's comparisons decided or equal (absent in pool.json written before it). */
const answeredOf = (x: PoolResult['priors'][number]) => (x.asked ? `, ${x.answered} of ${x.asked} answered` : '');

/**
 * What a CPU model name hides, per machine name: where runs of one name record two host CPUs or more, the pool answers
 * each as a machine of its own (model/kept.ts machineKeys), and this says so; where some record one and others none,
 * that whether those ran on it is not known. '' when nothing is hidden.
 */
export function hiddenCpus(p: Pick<PoolResult, 'runs'>): string {
  const by = new Map<string, { ids: Set<string>; cpus: Set<string>; none: number }>();
  for (const r of p.runs.filter((x) => x.pooled)) {
    // The name the machine has without its host CPU (machineKeys adds it where one name hides two).
    const [model, ...rest] = r.machine.split(', ');
    const tag = hostCpuTag(r.cpu_id);
    const name = [model!.endsWith(tag) ? model!.slice(0, -tag.length) : model, ...rest].join(', ');
    const m = by.get(name) ?? { ids: new Set<string>(), cpus: new Set<string>(), none: 0 };
    if (r.cpu_id) {
      m.ids.add(r.cpu_id);
      m.cpus.add(hostCpu(r.cpu_id));
    } else m.none++;
    by.set(name, m);
  }
  const s = (n: number) => (n === 1 ? '' : 's');
  return [...by]
    .map(([m, { ids, cpus, none: n }]) => {
      const listed = [...ids].join('; ');
      const unknown = n
        ? `, and the ${n} run${s(n)} that recorded none as one more (which CPU those ran on is not known)`
        : '';
      if (cpus.size > 1)
        return (
          ` The runs of ${m} report ${cpus.size} CPUs behind that name (${[...cpus].join('; ')}): ` +
          `each is answered as a machine of its own${unknown}.`
        );
      if (cpus.size === 1 && n)
        return (
          ` The runs of ${m} that record the CPU behind that name report ${listed}; ${n} other run${s(n)} recorded ` +
          'none, so whether those ran on it is not known.'
        );
      return '';
    })
    .join('');
}

/** One answer on one machine (configuration), as pool.md says it: what it said there, its interval, its runs, τr. */
function onMachineText(o: PoolResult['answers'][number]['pool']['on_machines'][number]): string {
  const s = (n: number) => (n === 1 ? '' : 's');
  const boots = o.boots === undefined ? '' : ` on ${o.boots} boot${o.boots === 1 ? ' (decides nothing)' : 's'}`;
  // One boot: its ratio so far, no interval (no run of a boot sees that boot's effect), as results.md says it.
  const range = o.boots === 1 ? ' so far' : ` (${o.lo.toFixed(3)}–${o.hi.toFixed(3)})`;
  return (
    `${o.name}: ${saidOn(o)}, ${o.ratio.toFixed(3)}${range}, ` +
    `${o.runs} run${s(o.runs)}${boots}, τ ${(o.tau * 100).toFixed(1)}%`
  );
}

/**
 * pool.md's answers (`npm run pool` on kept records alone): each a ÷ b, where it holds, and on each machine what it
 * said there ("slower": decided with a ÷ b below 1), its ratio and interval, from how many runs.
 */
export const poolAnswerLines = (p: Pick<PoolResult, 'answers'>): string[] =>
  p.answers.map(
    (a) =>
      `- ${a.a} ÷ ${a.b}: ${a.pool.where}` +
      (a.pool.on_machines.length ? `; ${a.pool.on_machines.map(onMachineText).join('; ')}` : ''),
  );

/**
 * Whose inputs differ, in words by when the run was: after the run the pool answers for (`since`, its started_at), the
 * run measured later code than that run's; before it, that code changed since.
 */
const differ = (r: Pick<PoolRun, 'started_at'>, since?: string) =>
  since && r.started_at > since ? 'ran later code' : 'changed since';

/**
 * Why a run counts in fewer comparisons than it measured: left out whole, or the contenders whose inputs differ
 * (more than three: their count and the first two); '' when it counts in all. results.md and `npm run pool` say it so.
 */
export function notPooled(r: Pick<PoolRun, 'left_out' | 'changed' | 'started_at'>, since?: string): string {
  if (r.left_out) return r.left_out;
  const words = differ(r, since);
  if (r.changed.length > 3) return `${r.changed.length} contenders ${words} (${r.changed.slice(0, 2).join(', ')}, …)`;
  return r.changed.length ? `${words}: ${r.changed.join(', ')}` : '';
}

/**
 * The runs that count for no comparison, in words by why (left out, and what for; or their contenders changed since,
 * or ran later code than the run answered for, `since`), each group's runs named by `name` when given: "22 whose
 * contenders changed since; 1 left out (…)"; and how many.
 */
export function pooledNothing(
  runs: PoolRun[],
  name?: (r: PoolRun) => string,
  since?: string,
): { count: number; text: string } {
  const by = new Map<string, PoolRun[]>();
  for (const r of runs) {
    if (r.pooled) continue;
    const why = r.left_out ? `left out (${r.left_out})` : `whose contenders ${differ(r, since)}`;
    by.set(why, [...(by.get(why) ?? []), r]);
  }
  const named = (rs: PoolRun[]) => (name ? ` (${rs.map(name).join(', ')})` : '');
  const text = [...by].map(([why, rs]) => `${rs.length} ${why}${named(rs)}`).join('; ');
  return { count: [...by.values()].reduce((s, rs) => s + rs.length, 0), text };
}

/** The section: the runs pooled (a row each) and those that count for nothing (by why), and where the answers hold. */
export function poolSection(an: Analysis): string {
  const p = an.pool;
  if (!p) return '';
  // The run the pool answers for: kept runs after it ran later code, not code that changed since.
  const since = p.inputs_of?.source === 'checkout' ? undefined : an.results?.started_at;
  const head =
    '| run | commit | machine | placement | sd between windows | handicap check | comparisons pooled | not pooled |\n' +
    '|---|---|---|---|---:|---|---:|---|';
  const rows = p.runs.flatMap((r) => {
    if (!r.pooled) return [];
    const not = notPooled(r, since);
    const sd = r.sd_windows === null ? '' : `${pct1(r.sd_windows)}${r.condition === 'contended' ? ' (contended)' : ''}`;
    const from = r.inputs_from === 'git' ? ' (inputs from its commit)' : '';
    const c = r.check;
    const seen = c?.detected ? 'detected' : 'NOT detected';
    const cpu = r.cpu_id ? ` (${r.cpu_id})` : '';
    const check = c ? `${signed(c.ratio)} (${signed(c.lo)}…${signed(c.hi)}), ${seen}` : '';
    return [
      `| ${r.started_at.slice(0, 16)}Z | ${r.commit.slice(0, 7)}${from} | ${r.machine}${cpu} | ${r.placement} | ` +
        `${sd} | ${check} | ${r.pooled} | ${not} |`,
    ];
  });
  // The comparisons the counts after it sum to: each pooled and placed, open on every machine too.
  const pooled = an.answers.filter((a) => !a.out && a.pool?.holds).length;
  const c = p.check;
  const check = c
    ? ` The handicap check (${c.contender}, ${c.pct}% longer per request by construction, ` +
      `−${pct1(1 - 1 / (1 + c.pct / 100))} req/s), judged as the answers are over ${c.runs} ` +
      `run${c.runs === 1 ? '' : 's'}: ${c.where}, ${c.detected ? 'detected' : 'NOT detected'}.`
    : '';
  // Each machine by the name its answers' words give it (machineNames over the same machines).
  const name = machineNames(p.priors.map((x) => x.machine));
  // The machines first, then the placements answered apart, as each answer lists them (poolSuffix).
  const priors = [...p.priors]
    .sort((x, y) => Number(!atDefault(x)) - Number(!atDefault(y)))
    .map(
      (x) =>
        `${name(x.machine)}${atDefault(x) ? '' : ` (${x.placement})`}: ${pct1(x.tau)} from ${x.runs} ` +
        `run${x.runs === 1 ? '' : 's'} on ${x.boots} boot${x.boots === 1 ? '' : 's'}${contendedOf(x)}${answeredOf(x)}`,
    )
    .join('; ');
  const anyInputs = p.any_inputs ? ' (here every kept run was taken as of the same inputs: --any-inputs)' : '';
  return (
    `**Where the answers hold** (${p.runs.filter((r) => r.pooled).length} runs on ${p.machines} ` +
    `machine${p.machines === 1 ? '' : 's'}, decided on each): of ${pooled} comparisons, ` +
    `${whereCounts({ answers: an.answers, machines: p.machines })}. A machine is its hardware (CPU model, CPU count, ` +
    'architecture, and the host CPU behind a CPU model name where its runs record two): kernel builds and boots are ' +
    'runs of it, and a CPU placement other than the one a default run takes there is a configuration of it, answered ' +
    'apart. A run counts for a comparison when ' +
    "both its contenders' inputs (what each runs: its app, its client's adapter and the contract, the locked " +
    `libraries, the runtime's version) equal ${inputsOf(p)}${anyInputs}. The median sd between boots (each ` +
    `comparison learns its own), and the comparisons answered, per machine: ${priors}. A boot is contended where a ` +
    `run of it has an sd between windows of ${NOISY_SD * 100}% or more.${hiddenCpus(p)}${looText(p)}${check}\n\n` +
    [head, ...rows].join('\n') +
    nothingLine(p.runs, since)
  );
}

/** After the table: the kept runs that count for no comparison, in a line by why, each named by its day and commit. */
function nothingLine(runs: PoolRun[], since?: string): string {
  const day = (r: PoolRun) => `${r.started_at.slice(0, 10)} ${r.commit.slice(0, 7)}`;
  const { count, text } = pooledNothing(runs, day, since);
  return count ? `\n\nKept and pooled for no comparison (${count}): ${text}.` : '';
}

/** Whose inputs a pooled run's must equal: "those of the published run (commit 90a5002)". */
function inputsOf(p: Pick<PoolResult, 'inputs_of'>): string {
  const o = p.inputs_of;
  if (!o) return 'those of the run the pool answers for';
  const at = `commit ${o.commit.slice(0, 7)}${o.dirty ? ' with uncommitted changes' : ''}`;
  return o.source === 'run' ? `those of the published run (${at})` : `this checkout's (${at})`;
}

/** What the pooled runs' machines share and where they differ (model/kept.ts machineDifference). */
function machinesText(p: Pick<PoolResult, 'runs'>): string {
  const keys = [...new Set(p.runs.filter((r) => r.pooled).map((r) => r.machine))];
  if (keys.length < 2) return '';
  const { shared, differ } = machineDifference(keys);
  return ` (${shared.length ? `all ${shared.join(', ')}; ` : ''}their ${listed(differ)} differ)`;
}

/** The README's line: how many runs and machines the answers pool, against the published run alone. */
export function poolLine(an: Analysis): string {
  const p = an.pool;
  if (!p) return '';
  const answered = (xs: { verdict: string; out?: string }[]) => xs.filter((a) => a.verdict !== 'undecided' && !a.out);
  const own = an.results.answers ?? [];
  const used = p.runs.filter((r) => r.pooled).length;
  // On one machine, whether an answer holds on another is not known: say so.
  const unknown = p.machines > 1 ? '' : ', and whether they hold on another machine is not measured yet';
  const where = `${whereCounts({ answers: an.answers, machines: p.machines })}${unknown}`;
  return (
    `**These answers pool ${used} run${used === 1 ? '' : 's'} on ${p.machines} ` +
    `machine${p.machines === 1 ? '' : 's'}${machinesText(p)}:** ` +
    `of ${an.answers.length} comparisons, ${where} (the run of ${an.results.started_at.slice(0, 10)} alone ` +
    `answered ${answered(own).length} at its own level; pooled, each machine decides from its own runs, at a level ` +
    'that tightens as runs are kept).' +
    `${checkText(an)} ` +
    'Pool runs from your own machine with `npm run pool` ' +
    '([docs/reading.md](docs/reading.md#pooling-runs-npm-run-pool)).'
  );
}

/** The handicap check: whether the pooled answers saw it, and whether the published run did alone. */
export function checkText(an: Analysis): string {
  const c = an.pool?.check;
  if (!c) return '';
  const own = an.handicap.find((f) => !isBase(f.check.compared_with ?? ''))?.check;
  const chance = own?.measured?.power?.chance;
  // A miss where the run's own power was low is what its noise predicts: said, so it is not read as a fault.
  const odds =
    own && !own.detected && chance !== undefined
      ? ` (at its noise a run sees it about ${(chance * 100).toFixed(0)}% of the time)`
      : '';
  const run = an.results?.started_at ? `the run of ${an.results.started_at.slice(0, 10)}` : 'the published run';
  const alone = own ? `; ${run} alone: ${own.detected ? 'detected' : 'not detected'}${odds}` : '';
  return (
    ` The ${term('handicap check')} (a twin made to take ${c.pct}% longer per request on purpose, ` +
    `${signed(1 / (1 + c.pct / 100))} req/s), judged as the answers are: ` +
    `${c.detected ? 'detected' : 'not detected'} (${c.where})${alone}.`
  );
}
