import { HOST, listenPort, streamFromEnv } from '@bench/stream';

const stream = await streamFromEnv();
const headers = { 'content-type': 'application/json' };

Bun.serve({
  hostname: HOST,
  port: listenPort(),
  routes: { '/': async () => new Response(await stream.readJson(), { headers }) },
  fetch: () => new Response('Not Found', { status: 404 }),
});
