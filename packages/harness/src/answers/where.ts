// Where a pooled answer holds, from its verdict on each machine measured. "Holds on every machine measured" means
// decided the same way on each: an intersection–union test (Berger, Technometrics 24, 1982), each machine at its own
// level, with no further correction. Otherwise the machines are named ("faster on Intel Xeon, open on AMD EPYC", or
// "reverses: …"). No average over machines is called decided. A placement other than the one a default run takes on
// its machine (--placement split on 2 CPUs) is a configuration of it: answered apart and said after the machines,
// never counted as one.
import { atDefault, type Holds, type OnMachine, type Said, saidOn as said } from '../model/across-runs';

export interface Across {
  /** "faster" (a ÷ b on the decided side of 1 on every machine), "equal" on every machine, or "undecided". */
  verdict: 'faster' | 'equal' | 'undecided';
  holds: Holds;
  /** "holds on every machine measured (AMD EPYC, Intel Xeon)", "faster on Intel Xeon, open on AMD EPYC", … */
  words: string;
  /** The machines' ratios' geometric mean (a description, never decided) and the envelope of their intervals. */
  ratio: number;
  lo: number;
  hi: number;
}

/** The machines that said each thing, in the order of `order`: "faster on A and B, open on C". */
function byWord(ms: OnMachine[], order: Said[]): string {
  return order
    .map((w) => [w, ms.filter((m) => said(m) === w).map((m) => m.name)] as const)
    .filter(([, names]) => names.length)
    .map(([w, names]) => `${w} on ${names.join(' and ')}`)
    .join(', ');
}

/** The answer across machines: the intersection–union verdict (default placement), and its words. */
export function across(all: OnMachine[]): Across {
  const machines = all.filter(atDefault);
  const ms = machines.length ? machines : all;
  const apart = machines.length ? all.filter((m) => !atDefault(m)) : [];
  const words = ms.map(said);
  const every = (w: Said) => words.every((x) => x === w);
  const names = ms.map((m) => m.name).join(', ');
  // A machine measured only with another placement is answered apart: "every machine measured" then says at which.
  const at = ms.length === 1 ? ' at its default placement' : ' at their default placements';
  const only = apart.some((a) => !ms.some((m) => m.machine === a.machine)) ? at : '';
  const onEach =
    ms.length === 1 ? `on the one machine measured${only} (${names})` : `on every machine measured${only} (${names})`;
  let verdict: Across['verdict'] = 'undecided';
  let holds: Holds = 'depends on the machine';
  let text: string;
  if (every('faster') || every('slower') || every('equal')) {
    verdict = every('equal') ? 'equal' : 'faster';
    holds = 'holds on every machine measured';
    text = `${every('equal') ? 'equal' : 'holds'} ${onEach}`;
  } else if (every('open')) {
    holds = 'open';
    text = `open ${onEach}`;
  } else if (words.includes('faster') && words.includes('slower')) {
    holds = 'reverses';
    text = `reverses: ${byWord(ms, ['faster', 'slower', 'equal', 'open'])}`;
  } else text = byWord(ms, ['faster', 'slower', 'equal', 'open']);
  // The flag names the placement, so the machine is named without it ("AMD EPYC", not "AMD EPYC (split)").
  const bare = (m: OnMachine) =>
    m.name.endsWith(` (${m.placement})`) ? m.name.slice(0, -` (${m.placement})`.length) : m.name;
  const config = apart.map((m) => `; with --placement ${m.placement} on ${bare(m)}: ${said(m)}`).join('');
  const ln = ms.reduce((s, m) => s + Math.log(m.ratio), 0) / ms.length;
  return {
    verdict,
    holds,
    words: text + config,
    ratio: Math.exp(ln),
    lo: Math.min(...ms.map((m) => m.lo)),
    hi: Math.max(...ms.map((m) => m.hi)),
  };
}
