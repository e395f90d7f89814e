import { Router } from '@stricjs/router';
import { HOST, JSON_HEADERS, listenPort, REUSE_PORT, routeFromEnv } from '@bench/stream';

// reusePort (passed on to Bun.serve): with WORKERS=2 each worker binds the port too.
// @ts-expect-error the router's bundled (old) Bun types lack `hostname`; it is passed to Bun.serve.
const router = new Router({ hostname: HOST, port: listenPort(), reusePort: REUSE_PORT });

// The workload's one route: GET / (the stream as JSON) or POST /items/:id (a write of the body's text).
const route = await routeFromEnv();
const { value } = route;
const method = route.method === 'GET' ? 'get' : 'post';
// An async handler, so the json wrapper awaits it (Stric chains only async functions).
if (value) router[method](route.path, async () => value(), { wrap: 'json' });
else
  router[method](route.path, async (req) => {
    const body = route.method === 'POST' ? await req.text() : '';
    const { status, json } = await route.handle(req.params?.id ?? '', body);
    return new Response(json, { status, headers: JSON_HEADERS });
  });
router.use(404).listen();
