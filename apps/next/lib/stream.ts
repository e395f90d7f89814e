import {
  isRead,
  JSON_HEADERS,
  openStream,
  streamOptionsFromEnv,
  type ClientName,
  type StreamSource,
} from '@bench/stream';

// One connection per client per server process, shared by every request.
const sources = new Map<ClientName, Promise<StreamSource>>();

export function streamFor(client: ClientName): Promise<StreamSource> {
  let source = sources.get(client);
  if (!source) {
    const opts = streamOptionsFromEnv(client);
    // Under a write workload only the write route is measured, but the build still prerenders the static pages from the
    // stream.
    source = openStream({ ...opts, client, workload: isRead(opts.workload) ? opts.workload : 'xrange' });
    sources.set(client, source);
  }
  return source;
}

/** plain: Response.json of the objects; direct: the string built by hand. */
export async function jsonResponse(client: ClientName): Promise<Response> {
  const stream = await streamFor(client);
  return stream.direct
    ? new Response(await stream.readJson(), { headers: JSON_HEADERS })
    : Response.json(await stream.read());
}

/** The body as text, for pages that embed it. */
export async function jsonText(client: ClientName): Promise<string> {
  const stream = await streamFor(client);
  return stream.direct ? stream.readJson() : JSON.stringify(await stream.read());
}
