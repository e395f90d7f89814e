import { HOST, JSON_HEADERS, listenPort, routeFromEnv, statusOf } from '@bench/stream';

// The workload's one route: GET / (the stream as JSON) or POST /items/:id (a write of the body's text).
const route = await routeFromEnv();
const { value } = route;

async function handler(req: Request): Promise<Response> {
  const id = req.method === route.method ? route.match(new URL(req.url).pathname) : null;
  if (id === null) return new Response('Not Found', { status: 404 });
  if (value) return Response.json(await value());
  const { status, json } = await route.handle(id, route.method === 'POST' ? await req.text() : '');
  return new Response(json, { status, headers: JSON_HEADERS });
}

// 503 when Redis did not answer in time (the raw reader's deadline), else 500.
const onError = (e: unknown) => new Response(null, { status: statusOf(e) });
Deno.serve({ hostname: HOST, port: listenPort(), onListen: () => {}, onError }, handler);
