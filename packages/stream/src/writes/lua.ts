// WRITE=lua: the upsert as one script, loaded once (SCRIPT LOAD) and run by its SHA (EVALSHA);
// a server that lost its scripts (a restart, SCRIPT FLUSH), or a cluster node SCRIPT LOAD did not
// reach, answers NOSCRIPT, and that request runs the script's text (EVAL), which the node keeps:
// its later EVALSHAs find it.
import type { WriteConnection } from '../contract.ts';
import { itemKey, upsertArgs, UPSERT_LUA, type Branch, type Writer } from './upsert.ts';

export async function luaWriter(conn: WriteConnection): Promise<Writer> {
  const sha = String(await conn.call(['SCRIPT', 'LOAD', UPSERT_LUA]));
  return {
    async upsert(id, fields, version) {
      const args = ['1', itemKey(id), ...upsertArgs(fields, version)];
      try {
        return { result: String(await conn.call(['EVALSHA', sha, ...args])) as Branch, version, retries: 0 };
      } catch (e) {
        if (!String((e as Error).message).startsWith('NOSCRIPT')) throw e;
        return { result: String(await conn.call(['EVAL', UPSERT_LUA, ...args])) as Branch, version, retries: 0 };
      }
    },
    close: () => conn.close(),
  };
}
