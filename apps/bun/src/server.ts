import { HOST, JSON_HEADERS, listenPort, REUSE_PORT, statusOf, streamFromEnv, upsertRouteFromEnv } from '@bench/stream';

// WORKERS=2: each worker binds the port too.
const server = {
  hostname: HOST,
  port: listenPort(),
  reusePort: REUSE_PORT,
  fetch: () => new Response('Not Found', { status: 404 }),
  // 503 when Redis did not answer in time (the raw reader's deadline), else 500.
  error: (e: Error) => new Response(null, { status: statusOf(e) }),
};

if (process.env.WORKLOAD === 'upsert') {
  // POST /items/:id: the record in the body written to item:{id}.
  const upsert = await upsertRouteFromEnv();
  Bun.serve({
    ...server,
    routes: {
      '/items/:id': {
        POST: async (req) => {
          const { status, json } = await upsert(req.params.id, await req.text());
          return new Response(json, { status, headers: JSON_HEADERS });
        },
      },
    },
  });
} else {
  // GET /: the stream as JSON.
  const stream = await streamFromEnv();
  Bun.serve({
    ...server,
    routes: {
      '/': stream.direct
        ? async () => new Response(await stream.readJson(), { headers: JSON_HEADERS })
        : async () => Response.json(await stream.read()),
    },
  });
}
