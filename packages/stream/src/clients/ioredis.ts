import { Cluster, Redis } from 'ioredis';
import type { Adapter, StreamOptions } from '../contract.ts';
import { openWith } from './ioredis-like.ts';

export const open = (o: StreamOptions): Promise<Adapter> => openWith(Redis, Cluster, 'ioredis', o);
