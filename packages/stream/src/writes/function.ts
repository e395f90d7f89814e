// WRITE=function: the same upsert as a Redis 7 function (FUNCTION LOAD REPLACE at start, FCALL per
// request): stored with the data, so a restart keeps it where a script cache is lost.
import type { WriteConnection } from '../contract.ts';
import { itemKey, upsertArgs, UPSERT_LUA, type Branch, type Writer } from './upsert.ts';

export const FUNCTION_NAME = 'bench_upsert';
const LIBRARY =
  '#!lua name=bench_upsert\n' +
  `redis.register_function('${FUNCTION_NAME}', function(KEYS, ARGV)\n` +
  `${UPSERT_LUA}\nend)\n`;

export async function functionWriter(conn: WriteConnection): Promise<Writer> {
  try {
    // A cluster keeps functions per node: every primary gets the library.
    const load = ['FUNCTION', 'LOAD', 'REPLACE', LIBRARY];
    await (conn.everyPrimary ? conn.everyPrimary(load) : conn.call(load));
  } catch (e) {
    throw new Error(`WRITE=function needs FUNCTION LOAD (Redis 7 or Valkey 7.2 and later): ${(e as Error).message}`);
  }
  return {
    upsert: async (id, fields, version) => ({
      result: String(
        await conn.call(['FCALL', FUNCTION_NAME, '1', itemKey(id), ...upsertArgs(fields, version)]),
      ) as Branch,
      version,
      retries: 0,
    }),
    close: () => conn.close(),
  };
}
