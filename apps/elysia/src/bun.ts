import { HOST, listenPort } from '@bench/stream';
import { app } from './app.ts';

app().listen({ hostname: HOST, port: listenPort() });
