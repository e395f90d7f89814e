// --redis-tls: the private Redis also listens on a TLS port, with a CA and a certificate for 127.0.0.1 made for the
// run by openssl in its folder; the apps read it at rediss:// and trust that CA the way each runtime and client is
// told to (tlsEnv), while the harness's own redis-cli keeps the plain port (its counters are not under test).
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface TlsFiles {
  /** The CA that signed the server's certificate (PEM), which every app is told to trust. */
  ca: string;
  cert: string;
  key: string;
}

/** A CA and a server certificate for 127.0.0.1 and localhost signed by it, in `dir` (EC P-256, valid 2 days). */
export function makeCertificates(dir: string): TlsFiles {
  const ssl = (...args: string[]) => {
    const r = spawnSync('openssl', args, { cwd: dir, encoding: 'utf8' });
    if (r.error) throw new Error('--redis-tls needs openssl to make its certificates: apt-get install openssl');
    if (r.status !== 0)
      throw new Error(`--redis-tls: openssl ${args[0]} failed: ${r.stderr.trim().split('\n').at(-1)}`);
  };
  const key = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  ssl(
    'req',
    '-x509',
    ...key,
    '-days',
    '2',
    '-subj',
    '/CN=redis-stream-bench CA',
    '-keyout',
    'ca.key',
    '-out',
    'ca.crt',
  );
  ssl('req', ...key, '-subj', '/CN=127.0.0.1', '-keyout', 'redis.key', '-out', 'redis.csr');
  writeFileSync(join(dir, 'san.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  const sign = ['-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-days', '2', '-extfile', 'san.ext'];
  ssl('x509', '-req', '-in', 'redis.csr', ...sign, '-out', 'redis.crt');
  return { ca: join(dir, 'ca.crt'), cert: join(dir, 'redis.crt'), key: join(dir, 'redis.key') };
}

/** redis-server's flags for a TLS port with these files; clients are not asked for certificates of their own. */
export const tlsServerArgs = (port: number, f: TlsFiles): string[] => [
  '--tls-port',
  String(port),
  '--tls-cert-file',
  f.cert,
  '--tls-key-file',
  f.key,
  '--tls-ca-cert-file',
  f.ca,
  '--tls-auth-clients',
  'no',
];

/**
 * How an app is told to trust the run's CA, each runtime and client as its docs say: Node and Bun read
 * NODE_EXTRA_CA_CERTS at start (node-redis, ioredis and Bun's client then verify against it), Deno reads DENO_CERT,
 * and the raw reader REDIS_TLS_CA.
 */
export const tlsEnv = (ca: string): Record<string, string> => ({
  NODE_EXTRA_CA_CERTS: ca,
  DENO_CERT: ca,
  REDIS_TLS_CA: ca,
});
