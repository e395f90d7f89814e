// A chart's spec drawn: Vega lays it out and renders SVG, resvg rasterises it. Loaded only where a chart is drawn
// (report/index.ts imports it on use): vega, vega-lite and resvg add a tenth of a second or more to a process's start.
import { Resvg } from '@resvg/resvg-js';
import * as vega from 'vega';
import * as vl from 'vega-lite';
import { FONT } from './charts';

/** DejaVu Sans's advance widths, in thousandths of an em, of ' ' to '~' (its hmtx table). */
const DEJAVU = [
  ...[318, 401, 460, 838, 636, 950, 780, 275, 390, 390, 500, 838, 318, 361, 318, 337, 636, 636, 636, 636, 636, 636],
  ...[636, 636, 636, 636, 337, 337, 838, 838, 838, 531, 1000, 684, 686, 698, 770, 632, 575, 775, 752, 295, 295, 656],
  ...[557, 863, 748, 787, 603, 787, 695, 635, 611, 732, 684, 989, 685, 611, 685, 390, 337, 390, 838, 500, 500, 613],
  ...[635, 550, 635, 615, 352, 635, 634, 278, 278, 579, 278, 974, 634, 612, 635, 635, 411, 521, 392, 634, 592, 818],
  ...[592, 592, 525, 636, 337, 636, 838],
];
/**
 * A text's width as DejaVu Sans draws it: bold 12% wider, any other character 0.84 em (÷, ×, ±), and never past the
 * item's limit (Vega truncates there). Vega with no canvas guesses 0.8 em a character, a third too wide: a chart of
 * long names was laid out with a blank margin that wide.
 */
function textWidth(item: { fontSize?: number; fontWeight?: string | number; limit?: number }, text: unknown) {
  const em = [...String(text ?? '').trim()].reduce((w, ch) => w + (DEJAVU[ch.charCodeAt(0) - 32] ?? 840), 0) / 1000;
  const bold = item.fontWeight === 'bold' || Number(item.fontWeight) >= 600 ? 1.12 : 1;
  const px = em * bold * (item.fontSize ?? 11);
  return item.limit && item.limit > 0 ? Math.min(px, item.limit) : px;
}
(vega as unknown as { textMetrics: { width: typeof textWidth } }).textMetrics.width = textWidth;

/** A chart's Vega view, laid out as its PNG is drawn (no renderer: the scenegraph only). Finalize it when done. */
export function chartView(spec: vl.TopLevelSpec): vega.View {
  return new vega.View(vega.parse(vl.compile(spec).spec), { renderer: 'none' });
}

export async function renderPng(spec: vl.TopLevelSpec): Promise<Buffer> {
  const view = chartView(spec);
  const svg = await view.toSVG();
  view.finalize();
  const resvg = new Resvg(svg, {
    background: 'white',
    fitTo: { mode: 'zoom', value: 2 },
    font: { loadSystemFonts: true, defaultFontFamily: FONT },
  });
  return Buffer.from(resvg.render().asPng());
}
