import Fastify from 'fastify';
import { HOST, listenPort, streamFromEnv, upsertRouteFromEnv } from '@bench/stream';

const app = Fastify({ logger: false });

if (process.env.WORKLOAD === 'upsert') {
  // POST /items/:id: Fastify parses the JSON body; the record is written to item:{id}.
  const upsert = await upsertRouteFromEnv();
  app.post<{ Params: { id: string } }>('/items/:id', async (req, reply) => {
    const { status, json } = await upsert(req.params.id, req.body);
    return reply.code(status).type('application/json').send(json);
  });
} else {
  const stream = await streamFromEnv();
  if (stream.direct) {
    app.get('/', async (_req, reply) => reply.type('application/json').send(await stream.readJson()));
  } else {
    // Returning the object: Fastify serialises it (JSON.stringify without a response schema).
    app.get('/', () => stream.read());
  }
}

await app.listen({ host: HOST, port: listenPort() });
