import { openStream, streamOptionsFromEnv, type ClientName, type StreamSource } from '@bench/stream';

// One connection per client per server process, shared by every request.
const sources = new Map<ClientName, Promise<StreamSource>>();

export function streamFor(client: ClientName): Promise<StreamSource> {
  let source = sources.get(client);
  if (!source) {
    source = openStream({ ...streamOptionsFromEnv(client), client });
    sources.set(client, source);
  }
  return source;
}

export async function jsonResponse(client: ClientName): Promise<Response> {
  const body = await (await streamFor(client)).readJson();
  return new Response(body, { headers: { 'content-type': 'application/json' } });
}
