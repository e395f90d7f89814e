import { Hono } from 'hono';
import { HOST, listenPort, streamFromEnv } from '@bench/stream';

const stream = await streamFromEnv();
const app = new Hono();

app.get('/', async (c) => c.body(await stream.readJson(), 200, { 'content-type': 'application/json' }));

Bun.serve({ hostname: HOST, port: listenPort(), fetch: app.fetch });
