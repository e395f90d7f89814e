import { Router } from '@stricjs/router';
import { HOST, JSON_HEADERS, listenPort, REUSE_PORT, streamFromEnv, upsertRouteFromEnv } from '@bench/stream';

// reusePort (passed on to Bun.serve): with WORKERS=2 each worker binds the port too.
// @ts-expect-error the router's bundled (old) Bun types lack `hostname`; it is passed to Bun.serve.
const router = new Router({ hostname: HOST, port: listenPort(), reusePort: REUSE_PORT });

if (process.env.WORKLOAD === 'upsert') {
  // POST /items/:id: the body text written to item:{id}.
  const upsert = await upsertRouteFromEnv();
  router.post('/items/:id', async (req) => {
    const { status, json } = await upsert(req.params.id, await req.text());
    return new Response(json, { status, headers: JSON_HEADERS });
  });
} else {
  const stream = await streamFromEnv();
  if (stream.direct) router.get('/', async () => new Response(await stream.readJson(), { headers: JSON_HEADERS }));
  // An async handler, so the json wrapper awaits it (Stric chains only async functions).
  else router.get('/', async () => stream.read(), { wrap: 'json' });
}
router.use(404).listen();
