import { jsonResponse } from '../../../../lib/stream';

export const dynamic = 'force-static';
export const GET = () => jsonResponse('ioredis');
