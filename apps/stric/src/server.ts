import { Router } from '@stricjs/router';
import { HOST, JSON_HEADERS, listenPort, REUSE_PORT, streamFromEnv } from '@bench/stream';

const stream = await streamFromEnv();

// reusePort (passed on to Bun.serve): with WORKERS=2 each worker binds the port too.
// @ts-expect-error the router's bundled (old) Bun types lack `hostname`; it is passed to Bun.serve.
const router = new Router({ hostname: HOST, port: listenPort(), reusePort: REUSE_PORT });
if (stream.direct) router.get('/', async () => new Response(await stream.readJson(), { headers: JSON_HEADERS }));
// An async handler, so the json wrapper awaits it (Stric chains only async functions).
else router.get('/', async () => stream.read(), { wrap: 'json' });
router.use(404).listen();
