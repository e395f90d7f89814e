import express from 'express';
import { HOST, listenPort, streamFromEnv } from '@bench/stream';

const stream = await streamFromEnv();
const app = express();

app.get(
  '/',
  stream.direct
    ? async (_req, res) => void res.type('application/json').send(await stream.readJson())
    : async (_req, res) => void res.json(await stream.read()),
);

app.listen(listenPort(), HOST);
