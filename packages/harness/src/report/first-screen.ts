// The README's first screen: how fast the fastest stacks are (a table of the ranking, answers/ranking.ts),
// the overall answer its tests give (the fastest, and what they are not yet separated from), and the machine the
// figures come from. Renders what the analysis computed; links are relative to the checkout's root.
import type { Analysis } from '../answers/analysis';
import type { TopStacks } from '../answers/ranking';
import { charts } from './charts';
import { answersLink, publishedAt } from './picks';
import { listed, term } from './words';
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
  // The table is one run; the picks below may pool several (report/pool.ts): said, so the two are not read as one.
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
      `\`-rawreply\` the project's own reader of the reply (${term('rawreply')}; no TLS, cluster or reconnect)`,
    has('-bytes') && `\`-bytes\` the client's Buffers (${term('bytes')})`,
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
      'decided faster than another';
  const them = one ? 'it' : 'each of them';
  const open = t.notSeparated;
  const others = t.ranks.length - t.top.length - open.length;
  if (t.top.length === t.ranks.length) return `${lead}.`;
  const rest = !open.length
    ? `${one ? 'it is' : 'each is'} ${term('decided')} faster than every other`
    : open.length <= MAX_NAMED
      ? `every other is ${term('decided')} slower than ${them}, except ${listed(open.map(code))}, still ` +
        `${term('open')} against ${one ? 'it' : 'some of them'}`
      : `${open.length} others are still ${term('open')} against ${one ? 'it' : 'some of them'}, and the other ` +
        `${others} are ${term('decided')} slower than ${them}`;
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
    `Every pair of the run's stacks was tested, and the chance of any false "faster" among them is at ` +
      'most 5% ([the method](docs/methodology.md#the-method)).',
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
    `**Noise:** one app's req/s moved by ${pct1(n.sdWindows)} from one ${len}${term('window')} to the next${ref}: ` +
    `${what} (${term('sd between windows')}).`
  );
}

/** The README's first screen of a read run: speed, the overall answer, then (after the picks) the machine. */
export function speedSection(an: Analysis): string {
  return [speedTable(an), topSentence(an)].filter(Boolean).join('\n\n');
}

/** After the picks: the machine the figures come from, and how noisy it was. */
export const machineSection = (an: Analysis) => [machineLine(an), noiseSentence(an)].filter(Boolean).join(' ');
