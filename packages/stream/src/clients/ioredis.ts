import { Cluster, Redis } from 'ioredis';
import type { Adapter, StreamOptions, WriteConnection } from '../contract.ts';
import { openWith, writesWith } from './ioredis-like.ts';

export const open = (o: StreamOptions): Promise<Adapter> => openWith(Redis, Cluster, 'ioredis', o);
export const openWrites = (o: StreamOptions): Promise<WriteConnection> => writesWith(Redis, Cluster, 'ioredis', o);
