// WRITE=lua: the upsert as one script, loaded once (SCRIPT LOAD) and run by its SHA (EVALSHA);
// a server that lost its scripts (a restart, SCRIPT FLUSH) answers NOSCRIPT and the script is
// loaded again, once per loss.
import type { WriteConnection } from '../contract.ts';
import { itemKey, upsertArgs, UPSERT_LUA, type Branch, type Writer } from './upsert.ts';

export async function luaWriter(conn: WriteConnection): Promise<Writer> {
  let sha = String(await conn.call(['SCRIPT', 'LOAD', UPSERT_LUA]));
  return {
    async upsert(id, fields, version) {
      const args = ['1', itemKey(id), ...upsertArgs(fields, version)];
      try {
        return { result: String(await conn.call(['EVALSHA', sha, ...args])) as Branch, version, retries: 0 };
      } catch (e) {
        if (!String((e as Error).message).startsWith('NOSCRIPT')) throw e;
        sha = String(await conn.call(['SCRIPT', 'LOAD', UPSERT_LUA]));
        return { result: String(await conn.call(['EVALSHA', sha, ...args])) as Branch, version, retries: 0 };
      }
    },
    close: () => conn.close(),
  };
}
