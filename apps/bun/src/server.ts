import { HOST, JSON_HEADERS, listenPort, REUSE_PORT, routeFromEnv, statusOf } from '@bench/stream';

// The workload's one route: GET / (the stream as JSON) or POST /items/:id (a write of the body's text).
const route = await routeFromEnv();
const { value } = route;

// WORKERS=2: each worker binds the port too.
Bun.serve({
  hostname: HOST,
  port: listenPort(),
  reusePort: REUSE_PORT,
  routes: {
    [route.path]: {
      [route.method]: value
        ? async () => Response.json(await value())
        : async (req: Bun.BunRequest<'/items/:id'>) => {
            const body = route.method === 'POST' ? await req.text() : '';
            const { status, json } = await route.handle(req.params.id ?? '', body);
            return new Response(json, { status, headers: JSON_HEADERS });
          },
    },
  },
  fetch: () => new Response('Not Found', { status: 404 }),
  // 503 when Redis did not answer in time (the raw reader's deadline), else 500.
  error: (e: Error) => new Response(null, { status: statusOf(e) }),
});
