import { HOST, listenPort } from '@bench/stream';
import { app } from './app.ts';

Bun.serve({ hostname: HOST, port: listenPort(), fetch: app.fetch });
