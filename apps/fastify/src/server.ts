import Fastify from 'fastify';
import { HOST, listenPort, streamFromEnv } from '@bench/stream';

const stream = await streamFromEnv();
const app = Fastify({ logger: false });

if (stream.direct) {
  app.get('/', async (_req, reply) => reply.type('application/json').send(await stream.readJson()));
} else {
  // Returning the object: Fastify serialises it (JSON.stringify without a response schema).
  app.get('/', () => stream.read());
}

await app.listen({ host: HOST, port: listenPort() });
