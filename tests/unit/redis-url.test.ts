// REDIS_URL names a Redis of your own; a node of a Redis Cluster is refused in one line that names
// the cause and the fix (docs/your-app.md quotes it).
import { describe, expect, test } from 'bun:test';
import { clusterRefusal } from '../../packages/harness/src/topology/redis';

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
