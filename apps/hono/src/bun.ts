import { HOST, listenPort, REUSE_PORT } from '@bench/stream';
import { app } from './app.ts';

// reusePort: with WORKERS=2 each worker binds the port too.
Bun.serve({ hostname: HOST, port: listenPort(), reusePort: REUSE_PORT, fetch: app.fetch });
