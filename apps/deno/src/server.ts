import { HOST, JSON_HEADERS, listenPort, statusOf, streamFromEnv, upsertRouteFromEnv } from '@bench/stream';

/** GET /: the stream as JSON. */
async function readHandler() {
  const stream = await streamFromEnv();
  const body = stream.direct
    ? async () => new Response(await stream.readJson(), { headers: JSON_HEADERS })
    : async () => Response.json(await stream.read());
  return (req: Request) => (new URL(req.url).pathname === '/' ? body() : new Response('Not Found', { status: 404 }));
}

/** WORKLOAD=upsert, POST /items/:id: the record in the body written to item:{id}. */
async function upsertHandler() {
  const upsert = await upsertRouteFromEnv();
  const route = new URLPattern({ pathname: '/items/:id' });
  return async (req: Request) => {
    const id = route.exec(req.url)?.pathname.groups.id;
    if (req.method !== 'POST' || !id) return new Response('Not Found', { status: 404 });
    const { status, json } = await upsert(id, await req.text());
    return new Response(json, { status, headers: JSON_HEADERS });
  };
}

const handler = Deno.env.get('WORKLOAD') === 'upsert' ? await upsertHandler() : await readHandler();
// 503 when Redis did not answer in time (the raw reader's deadline), else 500.
const onError = (e: unknown) => new Response(null, { status: statusOf(e) });
Deno.serve({ hostname: HOST, port: listenPort(), onListen: () => {}, onError }, handler);
