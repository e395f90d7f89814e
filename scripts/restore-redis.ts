// Start a Redis from dump.rdb for manual use (the seed's "restore dump.rdb into local redis"):
//   npm run restore -- [--port 6379] [--rdb dump.rdb] [--server redis|valkey]
// Runs in the foreground until Ctrl-C; the RDB is copied, never written.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { STREAM_KEY } from '@bench/stream';
import { withDashValues } from '../packages/harness/src/cli/flags';
import { printedHelp } from '../packages/harness/src/cli/usage-error';
import { ROOT } from '../packages/harness/src/system/paths';
import { portTaken } from '../packages/harness/src/system/net';
import { startOrphanGuard } from '../packages/harness/src/system/proc';
import { startPrivateRedis, streamInfo, type RedisTarget } from '../packages/harness/src/topology/redis';
import { SERVERS, SINGLE_SERVERS } from '../packages/harness/src/model/servers';

const HELP = `usage: npm run restore -- [--port 6379] [--rdb dump.rdb] [--server redis|valkey]
  --port N      the port Redis listens on, on 127.0.0.1 (default 6379)
  --rdb FILE    the RDB it starts from, copied, never written (default dump.rdb)
  --server S    redis (Debian's redis-server, the default) or valkey (the pinned valkey-server), as npm run bench's
                --server
  --help        this help
Runs in the foreground until Ctrl-C.`;
if (printedHelp(process.argv.slice(2), HELP)) process.exit(0);
let values;
try {
  const options = {
    port: { type: 'string', default: '6379' },
    rdb: { type: 'string', default: resolve(ROOT, 'dump.rdb') },
    server: { type: 'string', default: 'redis' },
  } as const;
  ({ values } = parseArgs({ args: withDashValues(process.argv.slice(2), options), options }));
} catch (e) {
  console.error(`error: ${(e as Error).message}; accepted: --port N --rdb FILE --server redis|valkey`);
  process.exit(2);
}
const port = Number(values.port);
if (!/^\d+$/.test(values.port!) || port < 1 || port > 65535) {
  console.error(`error: --port "${values.port}" must be a port number (1-65535)`);
  process.exit(2);
}
const server = values.server as (typeof SINGLE_SERVERS)[number];
if (!SINGLE_SERVERS.includes(server)) {
  console.error(`error: --server "${values.server}" is not one of ${SINGLE_SERVERS.join(', ')}`);
  process.exit(2);
}
const name = server === 'valkey' ? 'Valkey' : 'Redis';
startOrphanGuard(); // Redis goes when this script goes, however it ends
let redis: RedisTarget | null = null;
try {
  // Restore's port is 6379 or the one asked, never one picked for it: a taken one is said here, with restore's fix.
  if (await portTaken(port)) {
    console.error(
      `error: port ${port} on 127.0.0.1 is already in use (a ${name} already running?); pass another --port N`,
    );
    process.exit(2);
  }
  redis = await startPrivateRedis(resolve(values.rdb!), {
    port,
    binary: SERVERS[server].binary,
    install: SERVERS[server].install,
  });
  const info = streamInfo(redis, STREAM_KEY, values.rdb);
  console.log(`${name} is up on ${redis.url} with ${STREAM_KEY} (${info.length} entries). Press Ctrl-C to stop it.
  inspect:   redis-cli -p ${port} XLEN ${STREAM_KEY}
  start app: NODE_ENV=production REDIS_URL=${redis.url} PORT=3000 scripts/with-tools.sh bun run apps/elysia
  load it:   scripts/run-oha.sh http://127.0.0.1:3000/
  (every app's start line: README.md, "Running one app by hand")`);
  // Stopped on purpose (Ctrl-C, SIGTERM): exit 0 once Redis is down, not the failure its exit would otherwise be.
  let stopping = false;
  const stop = async () => {
    stopping = true;
    await redis?.stop();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  await redis.server!.process.exited;
  if (stopping) await new Promise(() => {}); // stop() exits
  console.error(`${SERVERS[server].binary} exited`);
  process.exit(1);
} catch (e) {
  console.error(`error: ${(e as Error).message}`);
  await redis?.stop();
  process.exit(1);
}
