// The published charts' layout, read from Vega's scenegraph as a reader would see the image: every label in its
// row, no bar below zero, no blank half, and the forest plot of every answer readable at 1,200 px.
import { describe, expect, test } from 'bun:test';
import { join } from 'node:path';
import type * as vl from 'vega-lite';
import { analyze } from '../../packages/harness/src/answers/analysis';
import { isFloor } from '../../packages/harness/src/model/questions';
import { readResults } from '../../packages/harness/src/model/results-file';
import { LEFTOVER_NOT_MEASURED } from '../../packages/harness/src/report/ceilings';
import { charts } from '../../packages/harness/src/report/charts';
import { chartView } from '../../packages/harness/src/report/render';
import { ROOT } from '../../packages/harness/src/system/paths';

/** The published reads and writes runs, and the tests' own fixture. */
const RUNS = ['results/latest', 'results/latest-upsert', 'tests/fixtures/results'] as const;
const specsOf = (dir: string, file = 'results.json') => {
  const an = analyze(readResults(join(ROOT, dir, file)));
  return { an, specs: charts(an) };
};

interface Box {
  x1: number;
  x2: number;
  y1: number;
  y2: number;
}
/** A drawn item: its mark's type and role, its datum and text, its box in the image's pixels (at zoom 1). */
interface Leaf {
  type: string;
  role: string;
  datum: Record<string, unknown>;
  text: string;
  fontSize: number;
  box: Box;
  width?: number;
  dashed: boolean;
}

/** The fields of a scenegraph item read here (a group's items are its marks). */
interface Item {
  bounds: Box;
  x?: number;
  y?: number;
  items?: Mark[];
  opacity?: number;
  text?: string | string[];
  datum?: Record<string, unknown>;
  fontSize?: number;
  width?: number;
  strokeDash?: number[];
}
interface Mark {
  marktype: string;
  role: string;
  items: Item[];
}

/** Every visible item but groups, placed in the image: each group's offset added to its children's bounds. */
function leaves(mark: Mark, dx: number, dy: number, out: Leaf[] = []): Leaf[] {
  for (const item of mark.items) {
    if (mark.marktype === 'group') {
      for (const child of item.items ?? []) leaves(child, dx + (item.x ?? 0), dy + (item.y ?? 0), out);
      continue;
    }
    const b = item.bounds;
    if (item.opacity === 0 || !Number.isFinite(b.x1) || b.x2 < b.x1) continue;
    const text = Array.isArray(item.text) ? item.text.join(' ') : String(item.text ?? '');
    out.push({
      type: mark.marktype,
      role: mark.role,
      datum: item.datum ?? {},
      text,
      fontSize: item.fontSize ?? 11,
      box: { x1: dx + b.x1, x2: dx + b.x2, y1: dy + b.y1, y2: dy + b.y2 },
      width: item.width,
      dashed: !!item.strokeDash,
    });
  }
  return out;
}

/** A spec laid out as `npm run report` draws it: its items, the image's size (zoom 1), its x scale's domain. */
async function draw(spec: vl.TopLevelSpec) {
  const view = chartView(spec);
  const svg = await view.toSVG();
  const [width, height] = ['width', 'height'].map((a) =>
    Number(svg.match(new RegExp(`<svg[^>]* ${a}="([\\d.]+)"`))![1]),
  );
  const [ox, oy] = view.origin();
  const items = leaves((view.scenegraph() as unknown as { root: Mark }).root, ox, oy);
  const domain = (() => {
    try {
      return view.scale('x')?.domain() as number[] | undefined;
    } catch {
      return undefined;
    }
  })();
  view.finalize();
  return { items, width: width!, height: height!, domain };
}

const overlaps = (a: Box, b: Box) => a.y1 < b.y2 && b.y1 < a.y2;
const union = (bs: Box[]): Box => ({
  x1: Math.min(...bs.map((b) => b.x1)),
  x2: Math.max(...bs.map((b) => b.x2)),
  y1: Math.min(...bs.map((b) => b.y1)),
  y2: Math.max(...bs.map((b) => b.y2)),
});
const isTitle = (l: Leaf) => l.role.startsWith('title');

/**
 * No blank part: what is drawn besides the title (marks, axes, legends) spans at least 80% of the image's width, all
 * that is drawn at least 80% of its height (a title stacks above the rest, a blank half is beside it), and everything
 * drawn is inside the image.
 */
function expectFilled({ items, width, height }: Awaited<ReturnType<typeof draw>>, what: string) {
  const all = union(items.map((l) => l.box));
  expect(all.x1, what).toBeGreaterThanOrEqual(-1);
  expect(all.y1, what).toBeGreaterThanOrEqual(-1);
  expect(all.x2, what).toBeLessThanOrEqual(width + 1);
  expect(all.y2, what).toBeLessThanOrEqual(height + 1);
  const content = union(items.filter((l) => !isTitle(l)).map((l) => l.box));
  expect((content.x2 - content.x1) / width, what).toBeGreaterThanOrEqual(0.8);
  expect((all.y2 - all.y1) / height, what).toBeGreaterThanOrEqual(0.8);
}

describe('every chart', () => {
  test('no blank part: 80% of the width drawn besides the title, 80% of the height drawn, all inside', async () => {
    const runs = [...RUNS.map((dir) => [dir, 'results.json']), ['tests/fixtures/results', 'against.json']];
    for (const [dir, file] of runs)
      for (const [chart, spec] of Object.entries(specsOf(dir!, file).specs))
        expectFilled(await draw(spec), `${dir}/${file}: ${chart}`);
  });
});

describe('the latency charts: one row per stack, its name as the row label', () => {
  test('each name in the row of its dot (p50) and bar (to p99), fastest p50 first; units in the axis', async () => {
    for (const dir of RUNS) {
      const { an, specs } = specsOf(dir);
      for (const [file, spec] of Object.entries(specs).filter(([f]) => f.endsWith('-latency.png'))) {
        const drawn = await draw(spec);
        const dots = drawn.items.filter((l) => l.type === 'symbol' && l.role === 'mark');
        const bars = drawn.items.filter((l) => l.type === 'rect' && l.role === 'mark');
        const figures = drawn.items.filter((l) => l.type === 'text' && l.role === 'mark');
        const rows = (spec as { data: { values: { name: string; p50: number; p99: number }[] } }).data.values;
        expect(rows.length, `${dir} ${file}`).toBeGreaterThan(0);
        expect(dots).toHaveLength(rows.length);
        for (const row of rows) {
          const label = drawn.items.find((l) => l.role === 'axis-label' && l.text === row.name);
          const dot = dots.find((l) => l.datum.name === row.name)!;
          const bar = bars.find((l) => l.datum.name === row.name)!;
          const figure = figures.find((l) => l.datum.name === row.name)!;
          expect(label, `${file}: ${row.name} labelled`).toBeDefined();
          for (const mark of [dot, bar, figure]) expect(overlaps(label!.box, mark.box)).toBe(true);
          // The bar runs from the dot's centre (p50) to the p99, the figures just right of its end.
          expect(Math.abs((dot.box.x1 + dot.box.x2) / 2 - bar.box.x1)).toBeLessThan(1);
          expect(figure.box.x1).toBeGreaterThanOrEqual(bar.box.x2);
          expect(figure.box.x1 - bar.box.x2).toBeLessThan(12);
          expect(figure.text).toContain('p99');
        }
        const p50s = [...dots].sort((a, b) => a.box.y1 - b.box.y1).map((d) => d.datum.p50 as number);
        expect(p50s).toEqual([...p50s].sort((a, b) => a - b));
        // Units stated once, in the one axis title.
        const titles = drawn.items.filter((l) => l.role === 'axis-title').map((l) => l.text);
        expect(titles).toHaveLength(1);
        expect(titles[0]).toContain('ms');
        for (const l of drawn.items.filter((t) => t.type === 'text')) expect(l.fontSize).toBeGreaterThanOrEqual(10);
      }
      expect(an.ranked.length).toBeGreaterThan(0);
    }
  });
});

describe('colours', () => {
  test('a runtime has one colour in req-sec.png and the latency charts, no two alike in a chart', () => {
    type Scale = { domain: string[]; range: string[] };
    for (const dir of RUNS) {
      const { specs } = specsOf(dir);
      const seen = new Map<string, string>();
      for (const [file, spec] of Object.entries(specs)) {
        if (file !== 'req-sec.png' && !file.endsWith('-latency.png')) continue;
        const { domain, range } = (spec as { layer: { encoding: { color: { scale: Scale } } }[] }).layer[0]!.encoding
          .color.scale;
        expect(new Set(range).size, `${dir} ${file}`).toBe(domain.length);
        domain.forEach((runtime, i) => {
          expect(seen.get(runtime) ?? range[i], `${dir} ${file}: ${runtime}`).toBe(range[i]!);
          seen.set(runtime, range[i]!);
        });
      }
      expect(seen.size).toBeGreaterThan(1);
    }
  });
});

describe('the forest plot of every answer (answers.png)', () => {
  test('at most 1,200 px wide, its text 11 px or more there, the x axis named once', async () => {
    for (const dir of RUNS) {
      const spec = specsOf(dir).specs['answers.png'];
      if (!spec) continue;
      const drawn = await draw(spec);
      expect(drawn.width, dir).toBeLessThanOrEqual(1200);
      for (const l of drawn.items.filter((t) => t.type === 'text'))
        expect(l.fontSize, `${dir}: "${l.text}"`).toBeGreaterThanOrEqual(11);
      expect(drawn.items.filter((l) => l.role === 'axis-title')).toHaveLength(0);
      const named = drawn.items.filter((l) => l.text.includes('A ÷ B req/s'));
      expect(named, dir).toHaveLength(1);
      expect(named[0]!.role).toBe('title-subtitle');
    }
  });

  test("each answer's label in its row, beside an end of its interval", async () => {
    for (const dir of RUNS) {
      const spec = specsOf(dir).specs['answers.png'];
      if (!spec) continue;
      const drawn = await draw(spec);
      const marks = drawn.items.filter((l) => l.role === 'mark');
      const key = (l: Leaf) => `${l.datum.question} ${l.datum.name}`;
      const labels = marks.filter((l) => l.type === 'text' && l.text);
      expect(labels.length).toBeGreaterThan(0);
      for (const label of labels) {
        const point = marks.find((l) => l.type === 'symbol' && key(l) === key(label))!;
        const rule = marks.find((l) => l.type === 'rule' && !l.dashed && key(l) === key(label))!;
        expect(overlaps(label.box, point.box), `${dir}: ${key(label)}`).toBe(true);
        const gap = Math.min(Math.abs(label.box.x1 - rule.box.x2), Math.abs(label.box.x2 - rule.box.x1));
        expect(gap, `${dir}: ${key(label)}`).toBeLessThan(10);
      }
    }
  });
});

describe("the breakdown of a request's CPU (breakdown.png)", () => {
  test('no part below zero: a negative leftover is no segment, its row says it was not measured and why', async () => {
    let unmeasured = 0;
    for (const dir of RUNS) {
      const { an, specs } = specsOf(dir);
      const spec = specs['breakdown.png'];
      if (!spec) continue;
      const drawn = await draw(spec);
      expect(drawn.domain![0]).toBeGreaterThanOrEqual(0);
      const bars = drawn.items.filter((l) => l.type === 'rect' && l.role === 'mark');
      for (const bar of bars) {
        expect(bar.datum.us as number).toBeGreaterThanOrEqual(0);
        expect(bar.width!).toBeGreaterThanOrEqual(0);
      }
      for (const c of an.ranked.filter((x) => x.breakdown)) {
        const label = drawn.items.find((l) => l.role === 'axis-label' && l.text === c.name)!;
        const leftover = bars.find((l) => l.datum.name === c.name && l.datum.part === 'leftover');
        const note = drawn.items.find((l) => l.role === 'mark' && l.type === 'text' && l.datum.name === c.name);
        if (c.breakdown!.leftover_us >= 0) {
          expect(note).toBeUndefined();
          continue;
        }
        unmeasured++;
        expect(leftover).toBeUndefined();
        expect(note!.text).toContain('leftover not measured');
        expect(overlaps(note!.box, label.box)).toBe(true);
        expect(note!.datum.why).toBe(LEFTOVER_NOT_MEASURED);
      }
      expect(drawn.items.some((l) => l.role === 'title-subtitle' && l.text.includes('leftover not measured'))).toBe(
        true,
      );
    }
    // The published reads run has negative leftovers: the case is exercised.
    expect(unmeasured).toBeGreaterThan(0);
  });
});

describe('no chart mixes workloads', () => {
  test("the writes' PING floor is on the writes' charts only, named as the floor; no reads chart shows one", () => {
    const { an: writes, specs: writeSpecs } = specsOf('results/latest-upsert');
    const floors = writes.ranked.filter(isFloor).map((c) => c.name);
    expect(floors.length).toBeGreaterThan(0);
    const latency = JSON.stringify(writeSpecs['server-latency.png']);
    for (const f of floors) expect(latency).toContain(`${f} (floor: writes nothing)`);
    for (const dir of ['results/latest', 'tests/fixtures/results']) {
      const { an, specs } = specsOf(dir);
      expect(an.ranked.some(isFloor)).toBe(false);
      const all = JSON.stringify(specs);
      for (const f of floors) expect(all).not.toContain(f);
      expect(all).not.toContain('floor');
    }
  });
});
