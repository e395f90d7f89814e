import { createServer } from 'node:http';
import { HOST, listenPort, streamFromEnv } from '@bench/stream';

const stream = await streamFromEnv();

createServer(async (req, res) => {
  if (req.url !== '/') {
    res.writeHead(404).end();
    return;
  }
  try {
    const body = await stream.readJson();
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  } catch {
    res.writeHead(500).end();
  }
}).listen(listenPort(), HOST);
