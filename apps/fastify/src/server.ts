import Fastify from 'fastify';
import { HOST, listenPort, routeFromEnv } from '@bench/stream';

const app = Fastify({ logger: false });

// The workload's one route: GET / (the stream as JSON) or POST /items/:id (a write; Fastify parses its JSON body).
const route = await routeFromEnv();
const { value } = route;
app.route<{ Params: { id?: string } }>({
  method: route.method,
  url: route.path,
  // Returning the object: Fastify serialises it (JSON.stringify without a response schema).
  handler: value
    ? () => value()
    : async (req, reply) => {
        const { status, json } = await route.handle(req.params.id ?? '', req.body);
        return reply.code(status).type('application/json').send(json);
      },
});

await app.listen({ host: HOST, port: listenPort() });
