import { Elysia, type ElysiaConfig } from 'elysia';
import { JSON_HEADERS, streamFromEnv } from '@bench/stream';

const stream = await streamFromEnv();

/** Returning the object: Elysia serialises it. direct: the string, with the JSON content type. */
export function app(config: ElysiaConfig<''> = {}) {
  const elysia = new Elysia(config);
  if (!stream.direct) return elysia.get('/', () => stream.read());
  return elysia.get('/', async ({ set }) => {
    set.headers['content-type'] = JSON_HEADERS['content-type'];
    return stream.readJson();
  });
}
