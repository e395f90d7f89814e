import Redis, { Cluster } from 'iovalkey';
import type { Adapter, StreamOptions, WriteConnection } from '../contract.ts';
import { openWith, writesWith } from './ioredis-like.ts';

export const open = (o: StreamOptions): Promise<Adapter> => openWith(Redis as any, Cluster as any, 'iovalkey', o);
export const openWrites = (o: StreamOptions): Promise<WriteConnection> =>
  writesWith(Redis as any, Cluster as any, 'iovalkey', o);
