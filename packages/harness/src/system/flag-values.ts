// A bad flag or flag value, and the value checks a flag's owner below the CLI needs (a workload's own flags): the
// message names the cause and the fix, and the CLI exits 2.
export class UsageError extends Error {}

/** "10s", "500ms", "1m", "2.5s" → seconds. */
export function parseDuration(flag: string, value: string, { allowZero = false } = {}): number {
  const m =
    /^(\d+(?:\.\d+)?)(ms|s|m)$/.exec(value.trim()) ?? (allowZero && value.trim() === '0' ? ['0', '0', 's'] : null);
  const seconds = m ? Number(m[1]) * { ms: 0.001, s: 1, m: 60 }[m[2] as 'ms' | 's' | 'm'] : NaN;
  if (!m || !(seconds > 0 || (allowZero && seconds === 0))) {
    throw new UsageError(
      `--${flag} "${value}" is not a ${allowZero ? '' : 'positive '}duration; use a number with ms, s or m, like 10s`,
    );
  }
  return seconds;
}
