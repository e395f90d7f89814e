import { StreamPage } from '../../../lib/StreamPage';

export const dynamic = 'force-dynamic';
export default StreamPage;
