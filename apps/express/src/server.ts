import express from 'express';
import { HOST, listenPort, streamFromEnv, upsertRouteFromEnv } from '@bench/stream';

const app = express();

if (process.env.WORKLOAD === 'upsert') {
  // POST /items/:id: express.json() parses the body; the record is written to item:{id}.
  const upsert = await upsertRouteFromEnv();
  app.post('/items/:id', express.json(), async (req, res) => {
    const { status, json } = await upsert(req.params.id, req.body);
    res.status(status).type('application/json').send(json);
  });
} else {
  const stream = await streamFromEnv();
  app.get(
    '/',
    stream.direct
      ? async (_req, res) => void res.type('application/json').send(await stream.readJson())
      : async (_req, res) => void res.json(await stream.read()),
  );
}

app.listen(listenPort(), HOST);
