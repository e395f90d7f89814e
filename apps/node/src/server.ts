import { createServer } from 'node:http';
import { HOST, listenPort, streamFromEnv } from '@bench/stream';

const stream = await streamFromEnv();
// plain: the objects through JSON.stringify; direct: the string built by the adapter.
const body = stream.direct ? () => stream.readJson() : async () => JSON.stringify(await stream.read());

createServer(async (req, res) => {
  if (req.url !== '/') {
    res.writeHead(404).end();
    return;
  }
  try {
    const json = await body();
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(json) });
    res.end(json);
  } catch {
    res.writeHead(500).end();
  }
}).listen(listenPort(), HOST);
