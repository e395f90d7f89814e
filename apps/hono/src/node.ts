import { serve } from '@hono/node-server';
import { HOST, listenPort } from '@bench/stream';
import { app } from './app.ts';

serve({ fetch: app.fetch, hostname: HOST, port: listenPort() });
