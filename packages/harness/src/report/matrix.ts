// The questions a runtime × framework × client × settings run answers, from one results.json:
// per runtime a framework × client grid, the effect of each setting (paired by round), and
// "what to pick". A claim is made only where intervals do not overlap.
import { CLIENTS } from '@bench/stream';
import type { ContenderResult, Results } from '../results';
import { summarize, type Summary } from '../stats';
import { ranked, type RankedContender } from './table';

const fmt0 = (x: number) => (Number.isFinite(x) ? x.toFixed(0) : '–');
const pct = (ratio: number) => `${ratio >= 1 ? '+' : '−'}${Math.abs((ratio - 1) * 100).toFixed(0)}%`;
const unique = <T>(xs: T[]) => [...new Set(xs)];
const isPlain = (c: ContenderResult) => !c.tuned?.length;
/** "raw", "hono", "next route-dynamic": one grid row. */
const rowOf = (c: ContenderResult) => (c.variant ? `${c.framework} ${c.variant}` : c.framework);
const byClientOrder = (a: string, b: string) => CLIENTS.indexOf(a as never) - CLIENTS.indexOf(b as never);

/** Below this coverage an interval backs no claim (3 runs give 75%, 5 give 93.75%). */
export const MIN_CLAIM_LEVEL = 0.9;
const claimable = (s: Summary) => s.ci.level >= MIN_CLAIM_LEVEL;

/** A's interval lies wholly above B's, both at ≥ 90%: the only way a claim "A is faster" is made. */
export const separated = (a: Summary, b: Summary) => claimable(a) && claimable(b) && a.ci.lo > b.ci.hi;

/** Ratios of A's to B's req/s in the rounds where both were measured, with the order-statistic interval. */
export function pairedRatio(a: ContenderResult, b: ContenderResult, level = 0.95): Summary | null {
  const byRound = (c: ContenderResult) => new Map((c.points[0]?.runs ?? []).filter((x) => !x.fault).map((x) => [x.round, x.rps]));
  const ra = byRound(a);
  const rb = byRound(b);
  const ratios = [...ra].filter(([round]) => rb.has(round)).map(([round, rps]) => rps / rb.get(round)!);
  return ratios.length ? summarize(ratios, level) : null;
}

/** One cell: the median and the run-wide rank group, or why there is no figure. */
function cell(r: Results, ok: RankedContender[], runtime: string, row: string, client: string): string {
  const c = ok.find((x) => x.runtime === runtime && rowOf(x) === row && x.client === client);
  if (c) return `${fmt0(c.rps!.median)} (${c.rank})${c.static ? ' static' : ''}`;
  const bad = r.contenders.find((x) => isPlain(x) && !x.self_check_of && x.runtime === runtime && rowOf(x) === row && x.client === client);
  if (bad) return bad.status;
  const name = [runtime, row.replace(' ', '-'), client].join('-');
  return r.unsupported?.some((u) => u.name === name) ? 'unsupported' : '';
}

/** Per runtime, a framework × client grid of median req/s (default settings) with rank groups. */
export function gridTables(r: Results): string {
  const ok = ranked(r).filter(isPlain);
  const all = r.contenders.filter((c) => isPlain(c) && !c.self_check_of);
  const out: string[] = [];
  for (const runtime of unique(all.map((c) => c.runtime))) {
    const mine = all.filter((c) => c.runtime === runtime);
    const clients = unique(mine.map((c) => c.client)).sort(byClientOrder);
    // Rows fastest first, by their best cell.
    const best = (row: string) => Math.max(0, ...ok.filter((c) => c.runtime === runtime && rowOf(c) === row).map((c) => c.rps!.median));
    const rows = unique(mine.map(rowOf)).sort((a, b) => best(b) - best(a));
    const head = `| ${runtime} | ${clients.join(' | ')} |\n|---|${clients.map(() => '---:').join('|')}|`;
    out.push([head, ...rows.map((row) => `| ${row} | ${clients.map((cl) => cell(r, ok, runtime, row, cl)).join(' | ')} |`)].join('\n'));
  }
  return out.length
    ? `**Framework × client, per runtime** (median req/s with default settings; in brackets the rank group of the whole run)\n\n${out.join('\n\n')}`
    : '';
}

/** The default-settings twin of a tuned contender: same runtime, framework, variant and client. */
const twinOf = (r: Results, c: ContenderResult) =>
  r.contenders.find((x) => isPlain(x) && !x.self_check_of && x.runtime === c.runtime && x.framework === c.framework && x.variant === c.variant && x.client === c.client);

export interface SettingEffect {
  setting: string;
  on: ContenderResult;
  off: ContenderResult;
  ratio: Summary;
}

export function settingEffects(r: Results): SettingEffect[] {
  const out: SettingEffect[] = [];
  for (const on of r.contenders.filter((c) => c.status === 'ok' && c.tuned?.length === 1 && !c.self_check_of && !c.ceiling)) {
    const off = twinOf(r, on);
    const ratio = off?.status === 'ok' ? pairedRatio(on, off, r.settings.ci_level) : null;
    if (off && ratio) out.push({ setting: on.tuned![0]!, on, off, ratio });
  }
  return out.sort((a, b) => a.setting.localeCompare(b.setting) || a.on.runtime.localeCompare(b.on.runtime) || a.on.name.localeCompare(b.on.name));
}

const verdict = (ratio: Summary) =>
  !claimable(ratio) ? `too few rounds to tell (${ratio.n})`
    : ratio.ci.lo > 1 ? `faster by ${pct(ratio.median).slice(1)}`
      : ratio.ci.hi < 1 ? `slower by ${pct(ratio.median).slice(1)}` : 'no measurable difference';

/** For each setting: on ÷ off req/s per runtime, framework and client, from runs of the same rounds. */
export function settingsTable(r: Results): string {
  const effects = settingEffects(r);
  if (!effects.length) return '';
  const head = '| setting | runtime | framework | client | on ÷ off (interval) | rounds | setting on is |\n|---|---|---|---|---:|---:|---|';
  const rows = effects.map(({ setting, on, ratio }) => {
    const ci = `${ratio.median.toFixed(2)} (${ratio.ci.lo.toFixed(2)}–${ratio.ci.hi.toFixed(2)}, ${(ratio.ci.level * 100).toFixed(1)}%)`;
    return `| ${setting} | ${on.runtime} | ${rowOf(on)} | ${on.client} | ${ci} | ${ratio.n} | ${verdict(ratio)} |`;
  });
  return `**Settings: the effect of each, against the same stack with defaults** (median of per-round ratios; a claim only where its interval, at 90% or more, excludes 1)\n\n${[head, ...rows].join('\n')}`;
}

/** "bun 828 > deno 700 ≈ node 664": fastest first; ">" where the neighbours' intervals do not overlap. */
export function chain(items: { label: string; rps: Summary }[]): string {
  const s = [...items].sort((a, b) => b.rps.median - a.rps.median);
  return s.map((x, i) => (i === 0 ? '' : separated(s[i - 1]!.rps, x.rps) ? ' > ' : ' ≈ ') + `${x.label} ${fmt0(x.rps.median)}`).join('');
}

/** "fastest: bun", or the contenders the top interval does not separate. */
function lead(items: { label: string; rps: Summary }[]): string {
  const s = [...items].sort((a, b) => b.rps.median - a.rps.median);
  const tied = s.filter((x, i) => i === 0 || !separated(s[0]!.rps, x.rps));
  return tied.length === 1 ? `**${s[0]!.label}**` : `no measurable difference between ${tied.map((x) => x.label).join(' and ')}`;
}

function groupLines(groups: Map<string, { label: string; rps: Summary }[]>): string[] {
  return [...groups].filter(([, xs]) => xs.length > 1).map(([key, xs]) => `  - ${key}: ${lead(xs)} (${chain(xs)})`);
}

const groupBy = <T>(xs: T[], key: (x: T) => string, item: (x: T) => { label: string; rps: Summary }) => {
  const m = new Map<string, { label: string; rps: Summary }[]>();
  for (const x of xs) (m.get(key(x)) ?? m.set(key(x), []).get(key(x))!).push(item(x));
  return m;
};

/** Each framework against the raw server of its runtime, with the same client. */
function overheadLines(dynamic: RankedContender[]): string[] {
  const lines: string[] = [];
  for (const c of dynamic.filter((x) => x.framework !== 'raw')) {
    const raw = dynamic.find((x) => x.framework === 'raw' && x.runtime === c.runtime && x.client === c.client);
    if (!raw) continue;
    const ratio = c.rps!.median / raw.rps!.median;
    const claim = separated(raw.rps!, c.rps!) ? 'slower' : separated(c.rps!, raw.rps!) ? 'faster' : 'no measurable difference';
    lines.push(`  - ${c.runtime} + ${c.client}: ${rowOf(c)} ${pct(ratio)} against the raw server (${claim})`);
  }
  return lines;
}

/** What to pick: the fastest runtime per framework and client, the fastest client per runtime, each framework's overhead. */
export function pickSummary(r: Results): string {
  const dynamic = ranked(r).filter((c) => isPlain(c) && !c.static);
  const item = (label: (c: RankedContender) => string) => (c: RankedContender) => ({ label: label(c), rps: c.rps! });
  const runtimes = groupLines(groupBy(dynamic, (c) => `${rowOf(c)} + ${c.client}`, item((c) => c.runtime)));
  const clients = groupLines(groupBy(dynamic.filter((c) => c.framework === 'raw'), (c) => `${c.runtime} (raw server)`, item((c) => c.client)));
  const overhead = overheadLines(dynamic);
  if (!runtimes.length && !clients.length && !overhead.length) return '';
  return [
    '**What to pick** (default settings, dynamic contenders; ">" only where the intervals, each at 90% or more, do not overlap; "≈" and "no measurable difference" otherwise)',
    '',
    runtimes.length ? `- The fastest runtime for the same framework and client:\n${runtimes.join('\n')}` : '',
    clients.length ? `- The fastest client on each runtime:\n${clients.join('\n')}` : '',
    overhead.length ? `- Each framework against its runtime's raw server, same client (median ratio):\n${overhead.join('\n')}` : '',
  ].filter(Boolean).join('\n');
}
