import { StreamPage } from '../../../lib/StreamPage';

export const dynamic = 'force-static';
export default StreamPage;
