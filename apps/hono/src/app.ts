import { Hono } from 'hono';
import { JSON_HEADERS, streamFromEnv } from '@bench/stream';

const stream = await streamFromEnv();

export const app = new Hono();
if (stream.direct) app.get('/', async (c) => c.body(await stream.readJson(), 200, JSON_HEADERS));
else app.get('/', async (c) => c.json(await stream.read()));
