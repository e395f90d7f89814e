import { HOST, JSON_HEADERS, listenPort, streamFromEnv } from '@bench/stream';

const stream = await streamFromEnv();
const handler = stream.direct
  ? async () => new Response(await stream.readJson(), { headers: JSON_HEADERS })
  : async () => Response.json(await stream.read());

Deno.serve({ hostname: HOST, port: listenPort(), onListen: () => {} }, (req) =>
  new URL(req.url).pathname === '/' ? handler() : new Response('Not Found', { status: 404 }),
);
