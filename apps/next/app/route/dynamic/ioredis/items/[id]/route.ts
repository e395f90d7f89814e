import { writeResponse } from '../../../../../../lib/write';

export const POST = (request: Request, { params }: { params: Promise<{ id: string }> }) =>
  writeResponse('ioredis', request, params);
