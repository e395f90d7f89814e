import { Elysia, type ElysiaConfig } from 'elysia';
import { JSON_HEADERS, streamFromEnv } from '@bench/stream';

const stream = await streamFromEnv();

/**
 * Returning the object: Elysia serialises it. direct: the string in a Response with the JSON
 * content type (set.headers is not applied to a returned string by the Node adapter).
 */
export function app(config: ElysiaConfig<''> = {}) {
  const elysia = new Elysia(config);
  if (!stream.direct) return elysia.get('/', () => stream.read());
  return elysia.get('/', async () => new Response(await stream.readJson(), { headers: JSON_HEADERS }));
}
