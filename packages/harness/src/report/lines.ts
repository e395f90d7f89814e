// The sweeps' chart shape: one line per contender of a figure against the swept value (the stream's size, Redis's
// distance, a workload's own value such as live's write rate), as a Vega-Lite spec. distance.ts, scaling.ts and a
// workload's sweep summary (measure/workload.ts LinesChart) give only what differs.
import type * as vl from 'vega-lite';
import type { ChartAxis, LinesChart } from '../measure/workload';

export function contenderLines(o: LinesChart): vl.TopLevelSpec {
  const axis = (a: ChartAxis) => ({
    field: a.field,
    type: a.sort ? 'ordinal' : 'quantitative',
    title: a.title,
    ...(a.sort ? { sort: a.sort } : {}),
    // A log axis cannot place 0 (a sweep's --write-rate 0): symlog keeps it, and reads as log above 1.
    ...(a.log ? { scale: { type: o.values.some((v) => !((v as never)[a.field] > 0)) ? 'symlog' : 'log' } } : {}),
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
