// How many seeded runs a Monte Carlo check needs: enough that a rate near `p` is known within ±margin (a 95% interval,
// normal approximation), and no more. Each check states its bound as "≤ p ± margin".
export const runsFor = (p: number, margin: number): number => Math.ceil((1.96 ** 2 * p * (1 - p)) / margin ** 2);
