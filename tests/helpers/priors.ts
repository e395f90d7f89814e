// A pool's prior with all its weight at one point of the grid, for tests that check a figure against its formula.
import { TAU_GRID } from '../../packages/harness/src/stats/meta-analysis';

/** A prior with all its weight at τr = tr (and τm = tm), over `machines` machines. */
export const priorAt = (tr: number, tm = 0, machines = 2) => ({
  run: TAU_GRID.map((t) => (t === tr ? 1 : 0)),
  machine: TAU_GRID.map((t) => (t === tm ? 1 : 0)),
  n: 0,
  nMachine: 0,
  machines,
});
