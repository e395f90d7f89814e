import { Router } from '@stricjs/router';
import { HOST, listenPort, streamFromEnv } from '@bench/stream';

const stream = await streamFromEnv();
const headers = { 'content-type': 'application/json' };

new Router({ hostname: HOST, port: listenPort() })
  .get('/', async () => new Response(await stream.readJson(), { headers }))
  .use(404)
  .listen();
