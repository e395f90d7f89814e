import { upsertResponse } from '../../../../../../lib/write';

export const POST = (request: Request, { params }: { params: Promise<{ id: string }> }) =>
  upsertResponse('node-redis', request, params);
