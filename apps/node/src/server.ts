import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { HOST, listenPort, routeFromEnv, statusOf } from '@bench/stream';

// The workload's one route: GET / (the stream as JSON) or POST /items/:id (a write of the body's text).
const route = await routeFromEnv();
const { value } = route;

/** The route's reply: the objects through JSON.stringify (plain), or the string the route built. */
async function reply(res: ServerResponse, id: string, body: string): Promise<void> {
  try {
    const { status, json } = value
      ? { status: 200, json: JSON.stringify(await value()) }
      : await route.handle(id, body);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(json) });
    res.end(json);
  } catch (e) {
    // 503 when Redis did not answer in time (the raw reader's deadline), else 500.
    res.writeHead(statusOf(e)).end();
  }
}

function handler(req: IncomingMessage, res: ServerResponse): void {
  const id = req.method === route.method ? route.match(req.url ?? '') : null;
  if (id === null) {
    res.writeHead(404).end();
    return;
  }
  if (route.method === 'GET') {
    void reply(res, id, '');
    return;
  }
  let text = '';
  req.setEncoding('utf8');
  req.on('data', (chunk: string) => (text += chunk));
  req.on('end', () => void reply(res, id, text));
}

createServer(handler).listen(listenPort(), HOST);
