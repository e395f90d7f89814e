import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { HOST, listenPort, statusOf, streamFromEnv, upsertRouteFromEnv } from '@bench/stream';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** GET /: the stream as JSON. */
async function readRoute(): Promise<Handler> {
  const stream = await streamFromEnv();
  // plain: the objects through JSON.stringify; direct: the string built by the adapter.
  const body = stream.direct ? () => stream.readJson() : async () => JSON.stringify(await stream.read());
  return async (req, res) => {
    if (req.url !== '/') {
      res.writeHead(404).end();
      return;
    }
    try {
      const json = await body();
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(json) });
      res.end(json);
    } catch (e) {
      // 503 when Redis did not answer in time (the raw reader's deadline), else 500.
      res.writeHead(statusOf(e)).end();
    }
  };
}

/** WORKLOAD=upsert, POST /items/:id: the record in the body written to item:{id}. */
async function upsertRoute(): Promise<Handler> {
  const upsert = await upsertRouteFromEnv();
  return (req, res) => {
    const id = /^\/items\/([A-Za-z0-9_-]+)$/.exec(req.url ?? '')?.[1];
    if (req.method !== 'POST' || !id) {
      res.writeHead(404).end();
      return;
    }
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', async () => {
      try {
        const { status, json } = await upsert(id, text);
        res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(json) });
        res.end(json);
      } catch {
        res.writeHead(500).end();
      }
    });
  };
}

createServer(process.env.WORKLOAD === 'upsert' ? await upsertRoute() : await readRoute()).listen(listenPort(), HOST);
