import { Hono } from 'hono';
import { JSON_HEADERS, routeFromEnv } from '@bench/stream';

export const app = new Hono();

// The workload's one route: GET / (the stream as JSON) or POST /items/:id (a write of the JSON body, c.req.json()).
const route = await routeFromEnv();
const { value } = route;
if (value) app.on(route.method, route.path, async (c) => c.json(await value()));
else
  app.on(route.method, route.path, async (c) => {
    const body = route.method === 'POST' ? await c.req.json().catch(() => null) : null;
    const { status, json } = await route.handle(c.req.param('id') ?? '', body);
    return c.body(json, status as 200, JSON_HEADERS);
  });
