// The README's first screen: how fast the fastest stacks are (a table of the ranking, answers/ranking.ts),
// the overall answer its tests give (the fastest, and what they are not yet separated from), and the machine the
// figures come from. Renders what the analysis computed; links are relative to the checkout's root.
import { cpuShortName } from '../model/kept';
import type { Analysis } from '../answers/analysis';
import { loadCommand } from '../model/load-command';
import { atDefault, type PickLine, type PicksResult, type PoolAnswer } from '../model/across-runs';
import type { TopStacks } from '../answers/ranking';
import { charts } from './charts';
import { answersLink, publishedAt } from './picks';
import { pct } from './answers';
import { asFactor, contendedOf, listed, pooledDays, redisPlace, term } from './words';
import { WORKLOAD_MODULES, workloadOfRun } from '../workloads';

/** Rows of the first screen's table: the fastest of the ranking; the rest are in results.md. */
const ROWS = 6;
const int = (x: number) => Math.round(x).toLocaleString('en-US');
const ms = (x: number | undefined) => (x === undefined ? '–' : `${x < 10 ? x.toFixed(1) : int(x)} ms`);
const code = (name: string) => `\`${name}\``;

/** The table of the fastest stacks, with their rank intervals, and where the rest are. */
function speedTable(an: Analysis): string {
  const r = an.results;
  const rank = new Map(an.top?.ranks.map((x) => [x.name, x.rank]));
  const rows = an.ranked.filter((c) => rank.has(c.name) && c.rps);
  if (!rows.length) return '';
  const load = workloadOfRun(r.settings).load(r, true);
  // The table is one run; the picks below may pool several (report/across-runs.ts): said, so the two are not read as
  // one.
  const pooled = an.pool ? an.pool.runs.filter((x) => x.pooled).length : 0;
  const head =
    `**How fast**, the fastest ${term('stacks', 'stack')} of the latest run (${r.started_at.slice(0, 10)}: ` +
    `${load}, at ${r.settings.connections[0]} connections)` +
    `${pooled > 1 ? `, one run; the picks below pool ${pooled} runs` : ''}:`;
  const table = [
    `| ${term('rank')} | stack | ${term('req/s')} | ${term('p50', 'p50 and p99')} | p99 | ` +
      `${term('CPU per request')} |`,
    '|---:|---|---:|---:|---:|---:|',
    ...rows
      .slice(0, ROWS)
      .map(
        (c) =>
          `| ${rank.get(c.name)} | ${code(c.name)} | ${int(c.rps!.median)} | ${ms(c.latency_ms?.p50)} | ` +
          `${ms(c.latency_ms?.p99)} | ${c.cpu_us_per_req === undefined ? '–' : `${int(c.cpu_us_per_req)} µs`} |`,
      ),
  ].join('\n');
  const more =
    rows.length > ROWS
      ? `${rows.length - ROWS} more, and every figure with its interval: `
      : 'Every figure with its interval: ';
  const shown = rows.slice(0, ROWS).map((c) => c.name);
  const has = (part: string) => shown.some((n) => n.includes(part));
  const words = [
    has('-raw-') && `\`raw\` is the runtime's own server (${term('raw server')})`,
    has('-rawreply') &&
      `\`-rawreply\` the project's own reader of the reply (${term('rawreply')}; one standalone Redis only)`,
    has('-bytes') && `\`-bytes\` the client's Buffers through the project's transcoder (${term('bytes')})`,
    has('-function') && '`-function` a Redis function (FCALL) in place of the default Lua script',
  ].filter(Boolean);
  const legend =
    `A name is runtime-framework-client, then a setting${words.length ? `: ${words.join(', ')}` : ''}. ` +
    'Ranks are among the stacks one would pick (left out: pages rendered once and served from a cache, and ' +
    "the writes' PING floor, which do no Redis work per request; results.md ranks every contender). " +
    `${more}[results.md](${answersLink(an)}). ${chartsLine(an)}`;
  return [head, table, legend].join('\n\n');
}

/** What each published chart shows, in a few words (a latency chart by its group: server, next). */
const CHART_WORDS: Record<string, string> = {
  'req-sec.png': 'req/s with intervals',
  'server-latency.png': 'latency',
  'next-latency.png': 'Next.js latency',
  'answers.png': 'every answer',
  'breakdown.png': "where a request's CPU goes",
  'changes.png': 'the changes',
  // The workloads' own charts, in their own words.
  ...Object.fromEntries(Object.values(WORKLOAD_MODULES).flatMap((w) => w.charts.map((c) => [c.file, c.words]))),
};

/** The published run's charts, linked where the README's run publishes them (screenshots/, or a folder of it). */
function chartsLine(an: Analysis): string {
  const dir = ['screenshots', publishedAt(an).shots].filter(Boolean).join('/');
  const links = Object.keys(charts(an)).map((f) => `[${CHART_WORDS[f] ?? f.replace('.png', '')}](${dir}/${f})`);
  return `Charts: ${links.join(', ')}.`;
}

/** A stack's name as the first screen writes it, the project's own raw reader said as such. */
function stackName(an: Analysis, name: string, rank?: string): string {
  const c = an.results.contenders.find((x) => x.name === name);
  const said = [c?.settings?.decode === 'raw' && "the project's own raw reader", rank].filter(Boolean);
  return said.length ? `${code(name)} (${said.join('; ')})` : code(name);
}

/** Named one by one up to this many; more are counted. */
const MAX_NAMED = 4;

/**
 * "The fastest stack in the latest run is A; every other stack is decided slower than it, except B, still open against
 * it", over the stacks of `t` (all, or those at their libraries' defaults: `among`, singular, and what its ranks
 * count).
 */
function topText(an: Analysis, t: TopStacks, among: [string, string]): string {
  const one = t.top.length === 1;
  // Several that may each be first are named with their ranks: "fastest" would overstate one ranked 1–16.
  const rank = new Map(t.ranks.map((x) => [x.name, x.rank]));
  const ranked = (n: string) => stackName(an, n, one ? undefined : rank.get(n));
  const named = t.top.slice(0, MAX_NAMED + 2).map(ranked);
  const names = listed(t.top.length > named.length ? [...named, `${t.top.length - named.length} more`] : named);
  const lead = one
    ? `**The fastest ${among[0]} in the latest run is ${names}**`
    : `**Not ruled out as the fastest ${among[0]} in the latest run** (${among[1]}): **${names}**, none ` +
      'ranked above another';
  const them = one ? 'it' : 'each of them';
  const open = t.notSeparated;
  const others = t.ranks.length - t.top.length - open.length;
  if (t.top.length === t.ranks.length) return `${lead}.`;
  // The ranking's own test of every pair (ranking.ts), a family apart from the answers': its words are ranks, not the
  // answers' "decided" and "open", which the answers below give for the pairs they ask.
  const rest = !open.length
    ? `${one ? 'it ranks' : 'each ranks'} above every other`
    : open.length <= MAX_NAMED
      ? `every other ranks below ${them}, except ${listed(open.map(code))}, not yet told apart from ` +
        `${one ? 'it' : 'some of them'}`
      : `${open.length} others are not yet told apart from ${one ? 'it' : 'some of them'}, and the other ` +
        `${others} rank below ${them}`;
  return `${lead}; ${rest}.`;
}

/** The overall answer, over every stack and (when they differ) over the stacks at their libraries' defaults. */
function topSentence(an: Analysis): string {
  const t = an.top;
  if (!t) return '';
  const d = an.topDefaults;
  const same = !d || d.top.join() === t.top.join();
  return [
    topText(an, t, ['stack', 'rank as in the table, among the stacks one would pick']),
    // Its ranks count fewer stacks than the table's: a reader holding one against the other must be told.
    !same &&
      topText(an, d, [
        "stack at its libraries' defaults",
        "ranked among the default stacks only, so these rank ranges can be lower than the table's",
      ]),
    "Every pair of the run's stacks was tested for these ranks, a family of its own beside the answers below, and " +
      'the chance that any stack ranks above one it is not faster than is at most 5% ' +
      '([the method](docs/methodology.md#the-method)).',
  ]
    .filter(Boolean)
    .join(' ');
}

/** The machine in one line: its CPUs, and whether oha, Redis and the app share them. */
function machineLine(an: Analysis): string {
  const e = an.results.environment;
  const p = an.results.settings.placement;
  const shared =
    p.name === 'none'
      ? `oha, Redis and the app share them (${term('shared CPUs')}): a faster app leaves less ` +
        'CPU to the other two, and on a machine with more CPUs the figures rise'
      : `the app on CPU ${p.app}, Redis on ${p.redis} and oha on ${p.loadgen} (placement ${p.name})`;
  return `**The machine:** ${e.cpu_model} with ${e.logical_cpus} logical CPUs (${e.kernel}); ${shared}.`;
}

const pct1 = (x: number) => `${(x * 100).toFixed(1)}%`;

/** The run's noise in one plain sentence, against the quietest kept run's, linked to what it means. */
function noiseSentence(an: Analysis): string {
  const n = an.noise;
  if (!n) return '';
  // The quietest other run kept on this kind of machine; a run quieter than it is said to be the quietest.
  const where = n.reference?.sameKind ? 'on this kind of machine' : 'on any machine';
  const ref = !n.reference
    ? ''
    : n.sdWindows <= n.reference.sdWindows
      ? `, the least of the runs kept ${where} (the next: ${pct1(n.reference.sdWindows)})`
      : ` (${pct1(n.reference.sdWindows)} in the quietest run kept ${where})`;
  const d = an.results.settings.duration_s;
  const len = d ? `${d}-second ` : '';
  const what = n.noisy
    ? 'a noisy machine, on which fewer comparisons are answered than on a quiet one; a longer `--budget` answers more'
    : 'a quiet machine';
  return (
    `**Noise:** the ratio of two stacks' req/s moved by ${pct1(n.sdWindows)} from one ${len}${term('window')} to the ` +
    `next${ref}: ` +
    `${what} (${term('sd between windows')}).`
  );
}

/** The README's first screen of a read run: speed, the overall answer, then (after the picks) the machine. */
export function speedSection(an: Analysis): string {
  return [speedTable(an), topSentence(an)].filter(Boolean).join('\n\n');
}

/** After the picks: the machine the figures come from, and how noisy it was. */
export const machineSection = (an: Analysis) => [machineLine(an), noiseSentence(an)].filter(Boolean).join(' ');

// ---------------------------------------------------------------------------------------------------------------
// The first screen of a published read run (answers/picks.ts): three lines, each a pick against the usual choice with
// what it gives up and the machines it holds on, under the machines, the versions and the load command; the clients'
// ceiling is said below it (besideThePicks). Every figure is an answer of the picks' family: nothing on it comes from
// another source.

/** What a stack gives up against the usual choice (Node, node-redis), by the part it changes. */
const GIVES_UP: Record<string, Record<string, string>> = {
  runtime: { bun: 'Bun in place of Node', deno: 'Deno in place of Node' },
  client: {
    'bun-redis': "Bun's built-in client: no Cluster or Sentinel",
    glide: 'valkey-glide: a native (Rust) core per platform',
    ioredis: "ioredis's API in place of node-redis's API",
    iovalkey: "iovalkey (ioredis's API) in place of node-redis's API",
  },
  framework: { raw: "no router: the runtime's own HTTP server" },
};

const RUNTIME_NAMES: Record<string, string> = { node: 'Node', bun: 'Bun', deno: 'Deno' };
const x2 = (r: number) => `${r.toFixed(2)}×`;
/** The machines (default placement) an answer was measured on, named as the page names them. */
const onDefault = (a: PoolAnswer) => a.pool.on_machines.filter(atDefault);

/** "Bun in place of Node; Bun's built-in client: no Cluster or Sentinel", or "nothing". */
export function givesUp(an: Analysis, name: string, usual: string): string {
  const of = (n: string) => an.results.contenders.find((c) => c.name === n);
  const [c, u] = [of(name), of(usual)];
  if (!c || !u) return '';
  const parts = (['runtime', 'framework', 'client'] as const)
    .filter((k) => c[k] !== u[k])
    .flatMap((k) => GIVES_UP[k]?.[c[k]] ?? []);
  return parts.length ? parts.join('; ') : 'nothing';
}

/** "Intel Xeon", "AMD EPYC": a machine as the page names it (the machines line too), as the answers name it. */
const machineName = cpuShortName;

/** Where an answer holds, in the page's words: "every machine measured", "Intel Xeon; not yet known on AMD EPYC". */
export function holdsOn(a: PoolAnswer): string {
  const on = onDefault(a);
  const fast = on.filter((o) => o.verdict === 'faster' && o.ratio > 1).map((o) => machineName(o.name));
  const slow = on.filter((o) => o.verdict === 'faster' && o.ratio < 1).map((o) => `slower on ${machineName(o.name)}`);
  const open = on.filter((o) => o.verdict !== 'faster').map((o) => machineName(o.name));
  if (fast.length === on.length && on.length > 1) return 'every machine measured';
  if (!fast.length && !slow.length) return 'not yet known on any machine';
  return [listed(fast), ...slow, open.length && `not yet known on ${listed(open)}`].filter(Boolean).join('; ');
}

/** "1.25×"; "3.3×" from 1.5× on, as the answers' bullets say a factor (report/picks.ts factorText). */
const factor = (r: number) => (asFactor(r) ? `${r.toFixed(1)}×` : x2(r));
/** "(1.02×–1.53×)": the answer's interval, at the level its test spent, in the bullets' form. */
const interval = (a: Pick<PoolAnswer, 'lo' | 'hi'>) => `(${x2(a.lo)}–${x2(a.hi)})`;

/** The machines (default placement) the shown answers were measured on, in the machines line's order. */
function machinesOf(an: Analysis, answers: PoolAnswer[]): string[] {
  const measured = new Set(answers.flatMap((a) => onDefault(a).map((o) => o.machine)));
  const order = (an.pool?.priors ?? []).filter(atDefault).map((x) => x.machine);
  return [...new Set([...order, ...measured])].filter((m) => measured.has(m));
}

/** A machine as a column names it: "AMD EPYC" (its CPU count is on the machines line). */
const columnName = (answers: PoolAnswer[], machine: string) =>
  machineName(answers.flatMap(onDefault).find((o) => o.machine === machine)?.name ?? machine);

/**
 * A machine's figure: "**1.21×** faster (1.02×–1.45×)", or "not yet known: 1.34× (0.97×–1.86×)", the status
 * first; `figure` false (the table): "not yet known (0.97×–1.86×)", so that a bigger figure not yet known is not
 * read beside a bold one as a win.
 */
export function onMachineText(a: PoolAnswer, machine: string, figure = true): string {
  const o = onDefault(a).find((x) => x.machine === machine);
  // No figure there: its runs measured neither stack, or both without a chain to the usual choice (answers/picks.ts
  // chainRounds: links whose rounds cannot be matched, or too few shared), so "not measured" would not always be true.
  if (!o) return 'not compared';
  // Equal there: its interval at 1 − 2α/m lies within the margin (and may not hold 1), so it is said as the bound.
  if (o.verdict === 'equal') return `within ±${pct(Math.max(o.hi - 1, 1 / o.lo - 1))} ${interval(o)}`;
  if (o.verdict !== 'faster')
    return figure ? `not yet known: ${factor(o.ratio)} ${interval(o)}` : `not yet known ${interval(o)}`;
  return o.ratio > 1 ? `**${factor(o.ratio)}** faster ${interval(o)}` : `${factor(o.ratio)}, slower ${interval(o)}`;
}

/**
 * A kept row's cell on machine `m`: "none shown faster than it", or the row's stacks faster there and slower on another
 * machine (a reversal, never a pick: answers/picks.ts reverses).
 */
function keptCell(p: PicksResult, l: PickLine, m: string): string {
  const fasterHere = (x: PoolAnswer) =>
    onDefault(x).some((o) => o.machine === m && o.verdict === 'faster' && o.ratio > 1);
  const here = (l.reverses ?? []).filter((n) => p.answers.some((x) => x.a === n && fasterHere(x)));
  return here.length ? `${listed(here.map(code))} faster here, slower on another machine` : 'none shown faster than it';
}

/** One line: its pick, each machine's figure, and what it gives up; with none shown faster, the usual choice kept. */
function pickRow(an: Analysis, p: PicksResult, l: PicksResult['lines'][number], machines: string[]): string {
  const a = l.answer;
  const reversed = !!l.reverses?.length;
  if (!a)
    return `| ${l.want} | ${
      l.candidates ? (reversed ? 'every one shown slower on some machine' : 'every one shown slower') : 'none measured'
    } |${' |'.repeat(machines.length + 1)}`;
  // A cell not yet known gives its range alone: a bigger figure beside a bold one was re-read every round (9, 21–27).
  const row = (pick: string, gives: string, each = (m: string) => onMachineText(a, m, false)) =>
    `| ${l.want} | ${pick} | ${machines.map(each).join(' | ')} | ${gives} |`;
  // Every figure in a row is its pick's: the next best of a row that keeps the usual choice is said below the table.
  if (l.keep) {
    // Every candidate of the row equal on every machine or slower (answers/picks.ts none_faster): nothing beyond the
    // margin is given up; else one is not yet known somewhere and may be faster, as an untested pick may be.
    const margin = an.pool?.margin_pct ?? an.results.settings.target_ci_pct;
    const gives = l.none_faster
      ? `nothing beyond ±${margin}% (the next best: below the table)`
      : 'maybe some speed (the next best: below the table)';
    return row(`keep ${code(p.usual)}`, gives, (m) => keptCell(p, l, m));
  }
  if (!l.decided) {
    const gives = givesUp(an, a.a, p.usual);
    // Not shown faster, it may be slower: that is given up whatever else the stack changes.
    return row(
      `${code(a.a)} (no stack of this row shown faster${reversed ? ' and slower on no machine' : ''})`,
      gives === 'nothing' ? 'maybe some speed' : `${gives}; maybe some speed`,
    );
  }
  const also = l.also.length ? ` (also faster: ${listed(l.also.map(code))})` : '';
  return row(`${code(a.a)}${also}`, givesUp(an, a.a, p.usual));
}

/** Each machine's kept runs at the default placement, as the machines line counts them. */
type RunsOn = Map<string, number>;
const runsOn = (an: Analysis): RunsOn =>
  new Map((an.pool?.priors ?? []).filter(atDefault).map((x) => [x.machine, x.runs]));

/**
 * An answer's figure on each machine, named: "**1.23×** faster (1.10×–1.35×) on Intel Xeon" (lines below). From
 * fewer of the machine's runs than the machines line counts (a chain through the usual choice needs its links' rounds
 * matched: answers/picks.ts), it says so.
 */
const onEachMachine = (a: PoolAnswer, machines: string[], runs: RunsOn) =>
  machines.map((m) => {
    const o = onDefault(a).find((x) => x.machine === m);
    const all = runs.get(m);
    const fewer = o && all !== undefined && o.runs < all ? `, from ${o.runs} of its ${all} runs` : '';
    return `${onMachineText(a, m)} on ${columnName([a], m)}${fewer}`;
  });

/** A row that keeps the usual choice: its next best stack's figures, which the row itself does not show. */
function nextBestLines(p: PicksResult, machines: string[], runs: RunsOn): string[] {
  return p.lines.flatMap((l) => {
    const a = l.answer;
    if (!l.keep || !a) return [];
    const each = onEachMachine(a, machines, runs);
    const where = l.want.split(',')[0]!;
    return [`${where[0]!.toUpperCase()}${where.slice(1)}, the next best, ${code(a.a)}: ${each.join('; ')}.`];
  });
}

/** The framework most apps use, against the usual choice, for a reader who has it: from the same family. */
function expressLine(p: PicksResult, machines: string[], runs: RunsOn): string {
  const a = p.answers.find((x) => x.a === 'node-express-node-redis');
  if (!a) return '';
  const each = onEachMachine(a, machines, runs);
  return `Express (${code(a.a)}): ${each.join('; ')}; its other clients: \`npm run bench -- --matrix\`.`;
}

/** The least favourable machine's ratio and name. */
const worstOf = (a: PoolAnswer) => onDefault(a).reduce((w, o) => (o.ratio < w.ratio ? o : w));

/** Why a line's stack, faster somewhere, is not the table's fastest pick: its least favourable machine reads lower. */
function whyNotThePick(p: PicksResult, a: PoolAnswer): string {
  const top = p.lines.find((l) => l.id === 'fastest');
  if (!top?.decided || !top.answer || top.answer.a === a.a || !onDefault(a).length) return '';
  const [mine, theirs] = [worstOf(a), worstOf(top.answer)];
  const runtimes = [a.a, top.answer.a].map((n) => RUNTIME_NAMES[n.split('-')[0]!] ?? n.split('-')[0]);
  const pair = runtimes[0] === runtimes[1] ? 'the two' : runtimes.join(' and ');
  return (
    `; not the pick: where it gains least, ${factor(mine.ratio)}, against the pick's ${factor(theirs.ratio)} ` +
    `(${pair} not tested against each other)`
  );
}

/** A runtime's own pick (on Bun), by the table's rule, against the usual choice: from the same family. */
function noteLines(p: PicksResult, machines: string[], runs: RunsOn): string[] {
  return (p.notes ?? []).flatMap((l) => {
    const a = l.answer;
    if (!a) return [];
    const each = onEachMachine(a, machines, runs);
    // A stack of the line faster on one machine and slower on another (no pick) is said, not "none shown faster".
    const reversed = l.reverses?.length
      ? `, none shown faster on one machine without being slower on another (${listed(l.reverses.map(code))} ` +
        `${l.reverses.length > 1 ? 'are' : 'is'})`
      : ', none shown faster';
    const shown = l.decided ? '' : reversed;
    const on = l.want.replace(/^on /, '');
    return [`On ${on}: ${code(a.a)}${shown}: ${each.join('; ')}${whyNotThePick(p, a)}.`];
  });
}

/**
 * The three lines as one table, and what its figures are and how sure, in two short lines under it; `readme`: linked
 * to the rule below the README's first screen, else (results.md, report.html) pointing under the table.
 */
function picksTable(an: Analysis, p: PicksResult, readme = true): string {
  const shown = p.lines.flatMap((l) => l.answer ?? []);
  const machines = machinesOf(an, shown);
  const table = [
    `| you want | pick | ${machines.map((m) => `on ${columnName(shown, m)}`).join(' | ')} | what it gives up |`,
    `|---|---|${machines.map(() => '---|').join('')}---|`,
    ...p.lines.map((l) => pickRow(an, p, l, machines)),
  ].join('\n');
  // The key under the table: above it, readers reached a rough answer later and were no surer (rounds 25–26).
  const key =
    "Each figure: req/s ÷ the usual choice's on that machine, and the range the true ratio lies in. **Bold**: shown " +
    'faster. Not yet known: the range includes 1×, so only the range is given. Names: runtime-framework-client ' +
    `(\`raw\`: no framework); libraries' defaults; ${redisPlace(an.results)}.`;
  const rule = readme
    ? '[how a pick is chosen; Express, Bun and every other answer](#every-answer)'
    : 'how a pick is chosen, Express and Bun: under the table; every other answer: below';
  // With no figure shown faster, none is bold: the level is said of the table, not of bold figures there are not.
  const anyBold = table.includes('**');
  const level = `${+(p.alpha * 100).toFixed(1)}%`;
  const sure =
    (anyBold
      ? `How sure: at most a ${level} chance that one or more of the bold figures is wrong`
      : `How sure: no figure is bold (none shown faster); the chance of one or more wrong bold figures is held at ${
          level
        }`) +
    (an.pool
      ? `, and 5% for ${anyBold ? 'them' : 'any bold figure'} and every read answer below together (a pair also ` +
        "answered below has its range there at that family's level, a little different)"
      : '') +
    '. A ' +
    `pick is tested against the usual choice only (${rule}).`;
  return `${table}\n\n- ${key}\n- ${sure}`;
}

/**
 * How the table's rows are chosen (answers/picks.ts), said once below the first screen: readers re-read it two or three
 * times when it stood under the table (docs/runs/first-screen.md, rounds 21–23), and a row says its own fallback.
 */
const PICK_RULE =
  "**How a pick is chosen:** of a row's stacks, those shown faster on every machine, else those shown faster on " +
  'some machine and slower on none; of them, the one with the highest figure on its least favourable machine ' +
  '(tested against the usual choice, not against the others). With none shown faster, the row keeps the usual ' +
  "choice if it is one of the row's stacks (and names the next best), else names, of the stacks not shown slower, " +
  'the one with the highest figure on its least favourable machine.';

/**
 * Below the first screen, under "Every answer": how a pick is chosen, the next best of a kept row, Express, and each
 * runtime's own pick (on Bun), from the same family as the table, each against the usual choice on every machine; then
 * the clients' ceiling (not a pick).
 */
export function besideThePicks(an: Analysis): string {
  const p = an.picks;
  if (!p) return '';
  return [ruleAndBeside(an, p, "the first screen's table"), ceilingLine(an, p.usual)].filter(Boolean).join('\n\n');
}

/** How a pick is chosen, then the lines beside the picks (no link: results.md says them too), from `table`'s. */
function ruleAndBeside(an: Analysis, p: PicksResult, table: string): string {
  const shown = p.lines.flatMap((l) => l.answer ?? []);
  const machines = machinesOf(an, shown);
  const runs = runsOn(an);
  const lines = [...nextBestLines(p, machines, runs), expressLine(p, machines, runs), ...noteLines(p, machines, runs)]
    .filter(Boolean)
    .map((n) => `- ${n}`);
  const head = `${PICK_RULE} **Beside the picks**, from the same answers as ${table}:`;
  return lines.length ? `${head}\n\n${lines.join('\n')}` : PICK_RULE;
}

/**
 * The project's own reader against the usual choice, as the family's read-path answer says it (the bullets below say
 * the same answer): how far every client is from what the reply's bytes allow.
 */
function ceilingLine(an: Analysis, usual: string): string {
  const raw = an.results.contenders.find(
    (c) => c.settings?.decode === 'raw' && c.tuned?.length === 1 && c.name.startsWith(`${usual}-`),
  );
  const a = raw && (an.answers.find((x) => !x.out && x.a === raw.name && x.b === usual) as PoolAnswer | undefined);
  if (a?.verdict !== 'faster') return '';
  const on = a.pool ? onDefault(a) : [];
  // Measured on one machine alone (the others' runs ran an older reader): said, so the figure is that machine's.
  const one = on.length === 1 ? machineName(on[0]!.name) : null;
  const over = on.length > 1 ? ' over its machines' : '';
  const where = one ? ` (${x2(a.lo)}–${x2(a.hi)}, ${one} only)` : ` (${x2(a.lo)}–${x2(a.hi)}${over})`;
  const holds = !a.pool || one ? '' : `, shown faster on ${holdsOn(a)}`;
  return (
    `**The clients' ceiling, not a pick:** the project's own reply reader (${code(a.a)}) serves ` +
    `**${factor(a.ratio)}** the usual choice's req/s${where}${holds}: most of a request's CPU is the client building ` +
    "objects. It is no library's default, so not in the table; it ships as " +
    '[`@bench/raw-reader`](packages/raw-reader/README.md) (one standalone Redis; [TLS](docs/runs/decode.md) supported).'
  );
}

/** "7.0.15" from "Redis server v=7.0.15 …", "2.9.6" from "deno 2.9.6 (stable, …)", "24.21.0" from "v24.21.0". */
const versionIn = (s: string | undefined) => s?.match(/(\d+\.\d+\.\d+)/)?.[1] ?? '?';

/** Packages the page names, by what a reader calls them. */
const PACKAGE_NAMES: Record<string, string> = {
  redis: 'node-redis',
  ioredis: 'ioredis',
  iovalkey: 'iovalkey',
  '@valkey/valkey-glide': 'valkey-glide',
  express: 'Express',
  fastify: 'Fastify',
  hono: 'Hono',
  elysia: 'Elysia',
  '@stricjs/router': 'Stric',
  next: 'Next.js',
};
/** The clients' packages among them; the rest are frameworks. */
const CLIENT_PACKAGES = ['redis', 'ioredis', 'iovalkey', '@valkey/valkey-glide'];

/** The server the apps read first, by its version: Valkey's own with --server valkey, else redis-server's. */
export function serverVersion(an: Analysis): string {
  const first = an.results.data.servers?.[0];
  if (first?.name === 'valkey') return `Valkey ${first.version}`;
  return `Redis ${versionIn(an.results.environment.redis_server)}`;
}

/** The versions of the runtimes, clients and the frameworks the table names, Redis and oha, in one line. */
function versionsLine(an: Analysis, named: string[]): string {
  const e = an.results.environment;
  const got = new Map<string, string>();
  for (const deps of Object.values(e.packages ?? {}))
    for (const [pkg, v] of Object.entries(deps)) if (PACKAGE_NAMES[pkg]) got.set(pkg, v);
  const runtimes = Object.entries(RUNTIME_NAMES)
    .filter(([k]) => e.runtimes?.[k])
    .map(([k, n]) => `${n} ${versionIn(e.runtimes[k])}`);
  const frameworks = new Set(named.map((n) => an.results.contenders.find((c) => c.name === n)?.framework));
  const of = (pkgs: string[]) => pkgs.flatMap((k) => (got.has(k) ? [`${PACKAGE_NAMES[k]} ${got.get(k)}`] : []));
  const clients = of(CLIENT_PACKAGES);
  const isShown = (k: string) => frameworks.has(PACKAGE_NAMES[k]!.toLowerCase().replace('.js', ''));
  const shown = of(Object.keys(PACKAGE_NAMES).filter((k) => !CLIENT_PACKAGES.includes(k) && isShown(k)));
  return `**Versions:** ${runtimes.join(', ')}; ${[...clients, "Bun's built-in client"].join(', ')}${
    shown.length ? `; ${shown.join(', ')}` : ''
  }; ${serverVersion(an)}, oha ${versionIn(e.oha)}${appsAt(an)}.`;
}

/** "; the apps as at commit abc1234": the code the answers are of (none named when the pool took any inputs). */
function appsAt(an: Analysis): string {
  const e = an.results.environment;
  if (an.pool?.any_inputs) return '; the apps of several commits (pooled with --any-inputs)';
  return `; the apps as at commit \`${e.git_commit.slice(0, 7)}\`${e.git_dirty ? ' (with changes not committed)' : ''}`;
}

/** The machines the answers come from, each with its runs, and the dates; `linked`: its word to the glossary. */
function machinesLine(an: Analysis, linked = true): string {
  const p = an.pool;
  const e = an.results.environment;
  const name = machineName;
  if (!p) {
    const day = an.results.started_at.slice(0, 10);
    const cpus = sharing(an.results.settings.placement.name, 'its CPUs');
    return `**Machine:** ${name(e.cpu_model)}, ${e.logical_cpus} logical CPUs, one run (${day}); ${cpus}.`;
  }
  const machines = [...new Set(p.priors.filter(atDefault).map((x) => x.machine))].map((m) => {
    // The answers above are the default placement's: a run with Redis and oha apart is said below, not here.
    const own = p.priors.find((x) => x.machine === m && atDefault(x));
    const [runs, boots] = [own?.runs ?? 0, own?.boots ?? 0];
    const s = (n: number) => (n === 1 ? '' : 's');
    const contended = own ? contendedOf(own, linked) : '';
    return `${name(m)} (${runs} run${s(runs)} on ${boots} boot${s(boots)}${contended})`;
  });
  // A placement's runs are answered apart (model/kept.ts): counted here, so the machines' runs add up to the pool's.
  const apart = p.priors
    .filter((x) => !atDefault(x))
    .map((x) => `${x.runs} run${x.runs === 1 ? '' : 's'} on ${name(x.machine)} ${placed(x.placement)}`);
  const { span } = pooledDays(p.runs);
  // A machine's key names its architecture unless x64 (model/kept.ts): said, so "where it holds" needs no other line.
  const x64 = p.priors.every((x) => !/logical CPUs, /.test(x.machine)) ? ', all x86-64' : '';
  const also = apart.length ? ` (and ${listed(apart)}, answered apart)` : '';
  return `**Machines:** ${listed(machines)}${x64}${also}, ${span}; ${machinesCpus(p.priors.filter(atDefault))}.`;
}

/** Whether oha, Redis and the app share `cpus` at a placement (system/placement.ts), in the first screen's words. */
const sharing = (placement: string, cpus: string) =>
  placement === 'none'
    ? `oha, Redis and the app share ${cpus}`
    : placement === 'split'
      ? `the app has a CPU of its own, and oha and Redis share the rest of ${cpus}`
      : `Redis, oha and the app are pinned apart on ${cpus}`;

/** How each machine's runs (at its default placement) placed oha, Redis and the app: one clause where all agree. */
function machinesCpus(own: { machine: string; placement: string }[]): string {
  const by = new Map<string, string[]>();
  for (const x of own) by.set(x.placement, [...(by.get(x.placement) ?? []), machineName(x.machine)]);
  if (by.size <= 1) return sharing([...by.keys()][0] ?? 'none', "each machine's CPUs");
  return [...by].map(([placement, names]) => sharing(placement, `the CPUs of ${listed(names)}`)).join('; ');
}

/** A run's CPU placement in the first screen's words (no glossary term): split puts the app on a CPU of its own. */
const placed = (placement: string) =>
  placement === 'split'
    ? 'with the app on a CPU of its own'
    : placement === 'none'
      ? 'with oha, Redis and the app sharing its CPUs'
      : `with its CPUs placed another way (${placement})`;

/** `npm run bench`'s budget in minutes and steal bound in % (cli/args.ts: --budget's and --max-steal's defaults). */
const DEFAULT_MINUTES = 15;
const DEFAULT_MAX_STEAL = 5;

/**
 * The load, as the command a reader can run against one app: one window, repeated over the stacks for the run; then
 * the published run's budget and steal bound where they are not `npm run bench`'s (a run published with --publish:
 * its other settings are in its results.md's method line).
 */
function loadLine(an: Analysis): string {
  const s = an.results.settings;
  const cmd = loadCommand({ duration_s: s.duration_s, requests: s.requests, connections: s.connections[0]! });
  const budget = s.budget_s % 60 ? `${s.budget_s}s` : `${s.budget_s / 60}m`;
  const flags = [
    s.budget_s === DEFAULT_MINUTES * 60 ? '' : ` --budget ${budget}`,
    s.max_steal_pct === DEFAULT_MAX_STEAL ? '' : ` --max-steal ${s.max_steal_pct}`,
    s.publish ? ' --publish' : '',
  ].join('');
  const length = s.budget_s % 60 ? `${s.budget_s} s` : `${s.budget_s / 60} minutes`;
  const run = flags
    ? `the ${s.publish ? 'published' : "page's"} run is ${length} of rounds (\`npm run bench --${flags}\`${
        s.publish ? ', its other ' + "settings in its results.md's method line" : ''
      }; \`npm run bench\` alone: ${DEFAULT_MINUTES} minutes)`
    : `a run is ${DEFAULT_MINUTES} minutes of rounds (\`npm run bench\`)`;
  return `**Load:** \`${cmd}\` on each stack in turn, round after round; ${run}.`;
}

/**
 * The first screen of a published read run: the basics, then the three picks. `readme` false: as results.md and
 * report.html open, the same table from the same picks with no link out of the run's folder, and how a pick is chosen
 * and the lines beside the picks under it (the README says them under "Every answer").
 */
export function picksScreen(an: Analysis, readme = true): string {
  const p = an.picks;
  if (!p) return '';
  const { pickFor } = workloadOfRun(an.results.settings);
  const load = workloadOfRun(an.results.settings).load(an.results, true);
  const head =
    `**What to pick**${pickFor ? ` for ${pickFor}` : ''} (${load}, at ${an.results.settings.connections[0]} ` +
    `connections), each stack against the usual choice, ${code(p.usual)}: Node's own server with node-redis.`;
  const named = p.lines.flatMap((l) => l.answer?.a ?? []);
  // The basics above the table, as the anchors put them: where and how it was measured, then the answers.
  const basics = [machinesLine(an, readme), versionsLine(an, named), loadLine(an)].join('\n');
  return [head, basics, picksTable(an, p, readme), !readme && ruleAndBeside(an, p, 'the table')]
    .filter(Boolean)
    .join('\n\n');
}
