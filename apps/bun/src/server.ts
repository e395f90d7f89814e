import { HOST, JSON_HEADERS, listenPort, REUSE_PORT, streamFromEnv } from '@bench/stream';

const stream = await streamFromEnv();

Bun.serve({
  hostname: HOST,
  port: listenPort(),
  // WORKERS=2: each worker binds the port too.
  reusePort: REUSE_PORT,
  routes: {
    '/': stream.direct
      ? async () => new Response(await stream.readJson(), { headers: JSON_HEADERS })
      : async () => Response.json(await stream.read()),
  },
  fetch: () => new Response('Not Found', { status: 404 }),
});
