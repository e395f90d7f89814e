// A workload, one module from measuring to the page: what measuring asks of it (measure/workload.ts), and how its
// windows' records pool into a launch's run, what a request does in the report's words, and its figures, sections,
// charts and README lines. The harness asks the module, never the workload's name; a new workload is a module here
// and a line in index.ts.
import { RECORD_FIELDS, type SettingName } from '@bench/stream';
import type * as vl from 'vega-lite';
import type { Analysis } from '../answers/analysis';
import type { MeasuredWorkload } from '../measure/workload';
import type { ContenderResult, Results, RunRecord, WorkloadRecord } from '../model/results';

/**
 * Where a section goes in report.html: 'changes' and 'pick' lead with headings of their own, 'contenders' is the
 * page's sortable table (its markdown twin is the headline table), 'tables' gathers the rest, 'left-out' and 'method'
 * close the page.
 */
export type Place = 'changes' | 'pick' | 'contenders' | 'tables' | 'left-out' | 'method';

export interface Section {
  id: string;
  place: Place;
  /** A bold line above the section in the markdown. */
  title?: string;
  /** The section's markdown, from the run's analysis; empty when the run has nothing for it. */
  render: (an: Analysis) => string;
}

/** A chart of a workload's own: its file, its words in the README's line of charts, and its spec (null: none). */
export interface Chart {
  file: string;
  words: string;
  spec(an: Analysis, config: object, subtitle: string): vl.TopLevelSpec | null;
}

/**
 * A setting of its workload whose every answer the picks name, each twin against its default (report/picks.ts): the
 * read path (decode), which changes how the reply becomes the body; a write strategy, the question a write run asks.
 */
export interface NamedSetting {
  setting: SettingName;
  /** The bullet's bold title. */
  title: string;
  /** Each value's words. */
  words: Record<string, string>;
  /** Where the values are explained. */
  doc: string;
}

export interface Workload extends MeasuredWorkload {
  /** What its picks are for ("writes": What to pick for writes), or null: the reads' picks, the README's first. */
  readonly pickFor: string | null;
  /** Its settings whose every answer the picks name. */
  readonly namedSettings: readonly NamedSetting[];
  /** What a request does: in a chart's subtitle (short), and above the first screen's table. */
  load(r: Results, long: boolean): string;
  /**
   * Its records of a launch's windows pooled into the launch's run's (run/windows.ts; each window keeps its own); none
   * when it keeps none, or a window holds none.
   */
  pool(runs: RunRecord[]): WorkloadRecord | undefined;
  /** Its report sections, placed after the answers (report/sections.ts): empty for a run of another workload. */
  readonly sections: readonly Section[];
  readonly charts: readonly Chart[];
  /** Its lines in the README block: after the picks, and (`far`) for a run at a network distance. */
  readme(an: Analysis, far: boolean): string[];
  /**
   * Flags it cannot be measured with, each with why, refused before anything starts (cli/args.ts): a write has no
   * HTTP ceiling (--ceilings), and no stream of a given size to read (--entries). Absent: none.
   */
  readonly refuses?: Readonly<Record<string, string>>;
  /**
   * Why its pairs (--against, --app twice) are measured alternating only: --pair duet is refused, and --pair auto
   * alternates. Absent: either way.
   */
  readonly alternateOnly?: string;
  /**
   * Settings its route does not apply, each with why: a contender with one set is not measured under it (named with
   * --only, refused; from a suite, left out and listed). Absent: none.
   */
  readonly ignores?: Readonly<Record<string, string>>;
}

/** What the write routes (packages/stream's writes/) do not apply of the settings, and why. */
export const WRITE_ROUTE_IGNORES: Readonly<Record<string, string>> = {
  transform: 'the write route builds its own reply',
  handicap: 'the write route burns no handicap',
  pool: 'the write route opens its own connections',
};

/** Figures computed once per analysis, on first use (a section and a chart read the same ones). */
export function once<F>(compute: (an: Analysis) => F): (an: Analysis) => F {
  const memo = new WeakMap<Analysis, F>();
  return (an) => {
    if (!memo.has(an)) memo.set(an, compute(an));
    return memo.get(an)!;
  };
}

/** A contender's kept runs (Analysis.kept). */
export const keptOf = (kept: Map<string, RunRecord[]>, c: ContenderResult) => kept.get(c.name) ?? [];
export const sum = (xs: number[]) => xs.reduce((n, x) => n + x, 0);

/** Counts by name (error messages, the server's commands), summed over windows. */
export const sumCounts = (counts: Record<string, number>[]) =>
  counts.reduce<Record<string, number>>((m, c) => {
    for (const [k, n] of Object.entries(c)) m[k] = (m[k] ?? 0) + n;
    return m;
  }, {});

/** The head every workload's chart through the run shares: the schema, the report's config, its points, its title. */
export const chartHead = (values: object[], config: object, text: string, subtitle: string) => ({
  $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
  config,
  data: { values },
  title: { text, subtitle },
});

/**
 * A write workload's prober: `step` every `everyMs` on a Redis connection of the harness's own, until stopped (a step
 * records its own writes that failed, as unanswered; one that throws adds nothing, so it must throw only before it
 * sends a write); `stop` waits for the step under way, closes the connection and returns what the steps
 * collected.
 */
export function startProbing<T>(
  reader: { close(): void },
  step: (out: T[], signal: AbortSignal) => Promise<void>,
  everyMs = 50,
): { stop(): Promise<T[]>; abort(): Promise<void> } {
  const out: T[] = [];
  const halt = new AbortController();
  let [stopped, closed] = [false, false];
  const loop = (async () => {
    while (!stopped) {
      const t0 = Date.now();
      try {
        await step(out, halt.signal);
      } catch {}
      if (!stopped) await Bun.sleep(Math.max(0, everyMs - (Date.now() - t0)));
    }
  })();
  const close = () => {
    if (!closed) reader.close();
    closed = true;
  };
  return {
    stop: async () => {
      stopped = true;
      await loop;
      close();
      return out;
    },
    // A window that failed (a server gone): the probe in flight is cancelled, not waited out to its timeout.
    abort: async () => {
      stopped = true;
      halt.abort();
      close();
      await loop;
    },
  };
}

/** The record a write workload's request sends (RECORD_FIELDS): a few fields, about 200 bytes as stored. */
export const RECORD_BODY = JSON.stringify(
  Object.fromEntries(RECORD_FIELDS.map((f, i) => [f, `${f}-${'x'.repeat(30 + i * 5)}`])),
);

/** A write table's words for the requests answered with an error or not at all: each may have written. */
export const notAcknowledged = (n: number) =>
  n ? `; ${n} answered with an error or not at all (not acknowledged; each may have written)` : '';
