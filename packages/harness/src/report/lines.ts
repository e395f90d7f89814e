// The sweeps' chart shape: one line per contender of a figure against the swept value (the stream's size, a write
// rate, Redis's distance), as a Vega-Lite spec. distance.ts, write-rates.ts and scaling.ts give only what differs.
import type * as vl from 'vega-lite';

type Axis = { field: string; title: string; log?: boolean; sort?: { field: string } };

export function contenderLines(o: {
  title: string;
  values: object[];
  x: Axis;
  y: Axis;
  /** Where the contenders' names go: the right (the default) or below the chart, in two columns. */
  legend?: 'right' | 'bottom';
}): vl.TopLevelSpec {
  const axis = (a: Axis) => ({
    field: a.field,
    type: a.sort ? 'ordinal' : 'quantitative',
    title: a.title,
    ...(a.sort ? { sort: a.sort } : {}),
    ...(a.log ? { scale: { type: 'log' } } : {}),
  });
  const legend = o.legend === 'bottom' ? { orient: 'bottom', columns: 2, labelLimit: 400 } : { labelLimit: 320 };
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: o.legend === 'bottom' ? { text: o.title, anchor: 'start' } : o.title,
    data: { values: o.values },
    width: 560,
    height: 320,
    mark: { type: 'line', point: true },
    encoding: {
      x: axis(o.x),
      y: axis(o.y),
      color: {
        field: 'name',
        type: 'nominal',
        title: null,
        ...(o.legend === 'bottom' ? {} : { scale: { scheme: 'tableau20' } }),
        legend,
      },
    },
    ...(o.legend === 'bottom' ? { config: { font: 'DejaVu Sans', view: { stroke: null } } } : {}),
  } as vl.TopLevelSpec;
}
