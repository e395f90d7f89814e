import { JSON_HEADERS, streamOptionsFromEnv, upsertRoute, type ClientName, type UpsertRoute } from '@bench/stream';

// One writer per client per server process, shared by every request (as lib/stream.ts does for reads).
const routes = new Map<ClientName, Promise<UpsertRoute>>();

/** POST /route/dynamic/<client>/items/<id>: the JSON body (request.json()) written to item:{id}. */
export async function upsertResponse(
  client: ClientName,
  request: Request,
  params: Promise<{ id: string }>,
): Promise<Response> {
  let route = routes.get(client);
  if (!route) {
    route = upsertRoute({ ...streamOptionsFromEnv(client), client });
    routes.set(client, route);
  }
  const { status, json } = await (await route)((await params).id, await request.json().catch(() => null));
  return new Response(json, { status, headers: JSON_HEADERS });
}
