// --workload live's own flags: the writer's rate (a list sweeps it), the staleness an exact cache may show, and the
// fault drill that restarts Redis; and the settings they make (results.json's settings.live).
import type { GivenFlags, OwnFlag, OwnOptions } from '../../measure/workload';
import { parseDuration, UsageError } from '../../system/flag-values';
import { WRITE_RATES } from './sweep';

export const LIVE_FLAGS: Record<string, OwnFlag> = {
  'write-rate': {
    type: 'string',
    desc:
      'XADDs per second into the capped stream while the apps read it, ' +
      'or a sweep like 10,100,1000 (one run each, then req/s against write rate) (default 10)',
    why: "it sets the rate of the live workload's writer",
    sweeps: true,
  },
  'restart-redis': {
    type: 'boolean',
    desc:
      'in round 1 each block restarts the private Redis (SHUTDOWN ' +
      'SAVE, then again from its RDB) after its first windows; every app must serve a ' +
      'fresh snapshot within 10 s, and its later windows are checked like the others',
    why: 'it checks that caches come back exact after Redis restarts',
  },
  'max-staleness': {
    type: 'string',
    desc: 'a read staler than this makes an exact cache invalid (a TTL cache: its TTL plus this) (default 50ms)',
    why: "it bounds how far the live workload's reads may lag its writer",
  },
};

/** One --write-rate value: XADDs per second. */
function rate(r: string): number {
  const n = Number(r.trim());
  if (!/^\d+(\.\d+)?$/.test(r.trim()) || n > 10_000)
    throw new UsageError(`--write-rate "${r}" must be XADDs per second from 0 to 10000, or a list like 10,100,1000`);
  return n;
}

/** --restart-redis: a fault drill between two windows of one launch, on a Redis the harness owns. */
function restart(given: GivenFlags): boolean {
  if (given['restart-redis'] !== true) return false;
  if (given.windows !== undefined && Number(given.windows) < 2)
    throw new UsageError(
      "--restart-redis needs --windows 2 or more: Redis restarts between a launch's first window and its second",
    );
  if (given['redis-rtt'] !== undefined)
    throw new UsageError('--restart-redis with --redis-rtt: restart the server without a delay proxy in front of it');
  return true;
}

export function liveOptions(given: GivenFlags): OwnOptions {
  const rates = [...new Set(((given['write-rate'] as string | undefined) ?? '10').split(',').map(rate))].sort(
    (a, b) => a - b,
  );
  const maxStalenessMs =
    parseDuration('max-staleness', (given['max-staleness'] as string | undefined) ?? '50ms') * 1000;
  const restartRedis = restart(given);
  const settings = (writeRate: number) => ({
    write_rate: writeRate,
    max_staleness_ms: maxStalenessMs,
    ...(restartRedis ? { restart_redis: true } : {}),
  });
  const step = (r: number) => ({
    dir: `rate-${r}`,
    say: `--write-rate: the run at ${r} writes/s`,
    settings: settings(r),
  });
  return {
    settings: settings(rates[0]!),
    sweep: rates.length > 1 ? { flag: 'write-rate', values: rates, step, summary: WRITE_RATES } : null,
  };
}
