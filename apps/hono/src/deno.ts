import { HOST, listenPort } from '@bench/stream';
import { app } from './app.ts';

Deno.serve({ hostname: HOST, port: listenPort(), onListen: () => {} }, app.fetch);
