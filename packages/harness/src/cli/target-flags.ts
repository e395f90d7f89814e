// --target URL: the flags of a run against an app started by hand (target.ts runs it). Kept
// apart from target.ts, which needs the measuring code.
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { OwnBody } from '../run/options';
import { WORKLOAD_MODULES, workloadNamed } from '../workloads';
import type { FlagValues } from './select';

/** Flags a --target run would silently ignore: each names what it needs instead. */
const NOT_WITH_TARGET: Record<string, string> = {
  matrix: 'there is no suite to pick from',
  only: 'there is no suite to pick from',
  where: 'there is no suite to pick from',
  list: 'there is no suite to list',
  entries: 'it loads its own streams into a private Redis',
  resume: 'a --target run is short: start it again',
  ceilings: 'there is no stack here to measure a ceiling of, and redis-benchmark would load the Redis REDIS_URL names',
  'with-seed': 'the seed method launches each contender itself',
  'self-check': 'there is no suite to check against',
  handicap: 'it changes an app the harness launches',
  rate: 'a --target run measures closed-loop points only',
  rdb: 'the data is what REDIS_URL holds',
  'redis-port': 'the Redis is the one REDIS_URL names',
  server: 'the server is the one REDIS_URL names',
  servers: 'the server is the one REDIS_URL names',
  topology: 'the server is the one REDIS_URL names',
  'redis-rtt': 'the distance to Redis is what the three hosts have: put the Redis host farther away',
  'start-timeout': 'the harness starts nothing',
  placement: 'the app and Redis run elsewhere: oha gets the whole machine',
  profile: 'the seed profile launches each contender itself',
  'target-ci': 'one app has no comparison to decide',
  'max-runs': 'one app has no comparison to race: use --runs N',
  budget: 'one app has no comparison to race: use --runs N',
  'max-steal': 'steal is recorded per run, not measured again',
  publish: 'a --target run is never published (the README shows the suite)',
  // A workload's own flags: its workload runs on the private Redis only, or takes them.
  ...Object.fromEntries(
    Object.values(WORKLOAD_MODULES).flatMap((w) =>
      Object.keys(w.flags).map((flag) => [
        flag,
        w.privateRedis ? `--workload ${w.name} runs on the private Redis only` : `it belongs to --workload ${w.name}`,
      ]),
    ),
  ),
};

export interface TargetFlags {
  /** The app's URL, e.g. http://10.0.0.2:3000/ (null: no --target, the usual suite). */
  target: string | null;
  targetName: string | null;
  /** --body: the app's own body, from a file or its first response (null: the contract's body). */
  body: OwnBody | null;
}

/** --body FILE or --body first, checked; a string is the one-line error. */
function bodyFlag(raw: string | undefined): OwnBody | null | string {
  if (raw === undefined) return null;
  if (raw === 'first') return { from: 'first' };
  if (raw === 'any')
    return '--body any goes with --app only (a --target is held to one body): use --body first or FILE';
  if (!existsSync(raw) || !statSync(raw).isFile())
    return `--body ${raw}: no such file; give the file that holds the app's exact body, or --body first`;
  return { from: 'file', path: resolve(raw) };
}

/** The --target flags, checked; a string is the one-line error to show instead. */
export function targetFlags(values: FlagValues): TargetFlags | string {
  const raw = values.target as string | undefined;
  const name = values['target-name'] as string | undefined;
  if (raw === undefined)
    return name === undefined && (values.body === undefined || values.app !== undefined)
      ? { target: null, targetName: null, body: null }
      : name === undefined
        ? '--body goes with --target or --app: add --target http://host:port/path or --app "COMMAND"'
        : '--target-name goes with --target: add --target http://host:port/path';
  const body = bodyFlag(values.body as string | undefined);
  if (typeof body === 'string') return body;
  const clash = Object.keys(NOT_WITH_TARGET).find((k) => values[k] !== undefined && values[k] !== false);
  if (clash) return `--${clash} does not go with --target (${NOT_WITH_TARGET[clash]}): leave it out`;
  // An unknown --workload is refused with the other flags' values.
  const refused = workloadNamed(values.workload)?.noTarget;
  if (refused) return refused;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return `--target "${raw}" is not a URL; use http://host:port/path, e.g. http://10.0.0.2:3000/`;
  }
  if (url.protocol !== 'http:')
    return (
      `--target "${raw}" is ${url.protocol.replace(':', '')}; only http:// ` +
      'is measured (the apps serve plain HTTP), e.g. http://10.0.0.2:3000/'
    );
  if (url.username || url.password) return `--target "${raw}" carries credentials; the apps take none: leave them out`;
  if (name !== undefined && !/^[\w.-]{1,60}$/.test(name))
    return `--target-name "${name}" must be 1-60 letters, digits, '.', '_' or '-'`;
  return { target: url.toString(), targetName: name ?? 'target', body };
}
