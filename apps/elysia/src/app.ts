import { Elysia, type ElysiaConfig } from 'elysia';
import { JSON_HEADERS, streamFromEnv, upsertRouteFromEnv } from '@bench/stream';

const upsert = process.env.WORKLOAD === 'upsert' ? await upsertRouteFromEnv() : null;
const stream = upsert ? null : await streamFromEnv();

/**
 * Returning the object: Elysia serialises it. direct: the string in a Response with the JSON
 * content type (set.headers is not applied to a returned string by the Node adapter).
 * WORKLOAD=upsert: POST /items/:id, the body Elysia parsed written to item:{id}.
 */
export function app(config: ElysiaConfig<''> = {}) {
  const elysia = new Elysia(config);
  if (upsert) {
    return elysia.post('/items/:id', async ({ params, body }) => {
      const { status, json } = await upsert(params.id, body);
      return new Response(json, { status, headers: JSON_HEADERS });
    });
  }
  if (!stream!.direct) return elysia.get('/', () => stream!.read());
  return elysia.get('/', async () => new Response(await stream!.readJson(), { headers: JSON_HEADERS }));
}
