// REDIS_URL names a Redis of your own; a node of a Redis Cluster is refused in one line that names
// the cause and the fix (docs/your-app.md quotes it).
import { describe, expect, test } from 'bun:test';
import { clusterRefusal, unanswered } from '../../packages/harness/src/topology/redis';

describe('REDIS_URL: a cluster of your own', () => {
  test('a cluster node is refused, its password left out of the line', () => {
    const line = clusterRefusal('redis://:secret@10.0.0.3:7000', '# Cluster\r\ncluster_enabled:1\r\n');
    expect(line).toBe(
      'REDIS_URL=redis://:***@10.0.0.3:7000 is a node of a Redis Cluster, and a run reads one standalone Redis: ' +
        'point REDIS_URL at a standalone Redis, or unset it and add --topology cluster ' +
        'for a cluster the harness starts',
    );
    expect(line).not.toContain('\n');
  });

  test('a standalone Redis is accepted', () => {
    expect(clusterRefusal('redis://127.0.0.1:6379', '# Cluster\r\ncluster_enabled:0\r\n')).toBeNull();
  });
});

describe('REDIS_URL: one that does not answer', () => {
  test('rediss:// that gets no answer is told it asks for TLS; redis:// is not', () => {
    const why = 'redis PING: timed out';
    expect(unanswered('rediss://:pw@127.0.0.1:6379', why, false)).toBe(
      'REDIS_URL=rediss://:***@127.0.0.1:6379 does not answer (rediss:// asks for TLS: use redis:// if that ' +
        'Redis has none): redis PING: timed out; start that Redis, correct REDIS_URL, or unset it for a private Redis',
    );
    expect(unanswered('redis://127.0.0.1:6379', why, true)).toBe(
      'REDIS_URL=redis://127.0.0.1:6379 does not answer: redis PING: timed out; start that Redis or correct REDIS_URL',
    );
  });
});
