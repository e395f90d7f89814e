import { node } from '@elysiajs/node';
import { HOST, listenPort } from '@bench/stream';
import { app } from './app.ts';

app({ adapter: node() }).listen({ hostname: HOST, port: listenPort() });
