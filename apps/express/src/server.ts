import express from 'express';
import { HOST, listenPort, routeFromEnv } from '@bench/stream';

const app = express();

// The workload's one route: GET / (the stream as JSON) or POST /items/:id (a write; express.json() parses its body).
const route = await routeFromEnv();
const { value } = route;
const parse = route.method === 'POST' ? [express.json()] : [];
app[route.method === 'GET' ? 'get' : 'post'](
  route.path,
  ...parse,
  value
    ? async (_req, res) => void res.json(await value())
    : async (req, res) => {
        const { status, json } = await route.handle((req.params as { id?: string }).id ?? '', req.body);
        res.status(status).type('application/json').send(json);
      },
);

app.listen(listenPort(), HOST);
