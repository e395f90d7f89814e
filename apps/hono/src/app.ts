import { Hono } from 'hono';
import { JSON_HEADERS, streamFromEnv, upsertRouteFromEnv } from '@bench/stream';

export const app = new Hono();

if (process.env.WORKLOAD === 'upsert') {
  // POST /items/:id: the JSON body (c.req.json()) written to item:{id}.
  const upsert = await upsertRouteFromEnv();
  app.post('/items/:id', async (c) => {
    const { status, json } = await upsert(c.req.param('id'), await c.req.json().catch(() => null));
    return c.body(json, status as 200, JSON_HEADERS);
  });
} else {
  const stream = await streamFromEnv();
  if (stream.direct) app.get('/', async (c) => c.body(await stream.readJson(), 200, JSON_HEADERS));
  else app.get('/', async (c) => c.json(await stream.read()));
}
