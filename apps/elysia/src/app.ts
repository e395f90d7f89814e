import { Elysia, type ElysiaConfig } from 'elysia';
import { JSON_HEADERS, routeFromEnv } from '@bench/stream';

// The workload's one route: GET / (the stream as JSON) or POST /items/:id (a write of the body Elysia parsed).
const route = await routeFromEnv();

/**
 * Returning the object: Elysia serialises it. Otherwise the string in a Response with the JSON content type
 * (set.headers is not applied to a returned string by the Node adapter).
 */
export function app(config: ElysiaConfig<''> = {}) {
  const elysia = new Elysia(config);
  const { value } = route;
  const respond = ({ status, json }: { status: number; json: string }) =>
    new Response(json, { status, headers: JSON_HEADERS });
  if (value) return elysia.route(route.method, route.path, () => value());
  // A GET handler that names no body: Elysia parses what a handler reads, and a GET has none.
  if (route.method === 'GET')
    return elysia.route(route.method, route.path, async () => respond(await route.handle('', null)));
  return elysia.route(route.method, route.path, async ({ params, body }) =>
    respond(await route.handle((params as { id?: string }).id ?? '', body)),
  );
}
