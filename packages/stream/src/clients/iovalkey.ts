import Redis, { Cluster } from 'iovalkey';
import type { Adapter, StreamOptions } from '../contract.ts';
import { openWith } from './ioredis-like.ts';

export const open = (o: StreamOptions): Promise<Adapter> => openWith(Redis as any, Cluster as any, 'iovalkey', o);
