import { jsonResponse } from '../../../../lib/stream';

export const dynamic = 'force-dynamic';
export const GET = () => jsonResponse('ioredis');
