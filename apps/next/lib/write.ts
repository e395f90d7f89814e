import { JSON_HEADERS, routeFor, streamOptionsFromEnv, type ClientName, type Route } from '@bench/stream';

// One write route per client per server process, shared by every request (as lib/stream.ts does for reads).
const routes = new Map<ClientName, Promise<Route>>();

/** POST /route/dynamic/<client>/items/<id>: the JSON body (request.json()) to the write workload's route. */
export async function writeResponse(
  client: ClientName,
  request: Request,
  params: Promise<{ id: string }>,
): Promise<Response> {
  let route = routes.get(client);
  if (!route) {
    route = routeFor({ ...streamOptionsFromEnv(client), client });
    routes.set(client, route);
  }
  const { status, json } = await (await route).handle((await params).id, await request.json().catch(() => null));
  return new Response(json, { status, headers: JSON_HEADERS });
}
