import { Router } from '@stricjs/router';
import { HOST, listenPort, streamFromEnv } from '@bench/stream';

const stream = await streamFromEnv();
const headers = { 'content-type': 'application/json' };

// @ts-expect-error the router's bundled (old) Bun types lack `hostname`; it is passed to Bun.serve.
new Router({ hostname: HOST, port: listenPort() })
  .get('/', async () => new Response(await stream.readJson(), { headers }))
  .use(404)
  .listen();
