import { Elysia } from 'elysia';
import { HOST, listenPort, streamFromEnv } from '@bench/stream';

const stream = await streamFromEnv();

new Elysia()
  .get('/', async ({ set }) => {
    set.headers['content-type'] = 'application/json';
    return stream.readJson();
  })
  .listen({ hostname: HOST, port: listenPort() });
