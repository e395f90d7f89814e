import Fastify from 'fastify';
import { HOST, listenPort, streamFromEnv } from '@bench/stream';

const stream = await streamFromEnv();
const app = Fastify({ logger: false });

// The body is already JSON text: send it as-is instead of re-serialising.
app.get('/', async (_req, reply) => {
  reply.type('application/json');
  return stream.readJson();
});

await app.listen({ host: HOST, port: listenPort() });
