// GET /insights/v1/telemetry/playground: the query playground's page (public: it holds no data;
// the page signs in with a query client and calls the API with its token).
import { httpHandler } from '../../lib/http/chain';
import { playgroundDistDir } from '../../lib/playground/dist-dir';
import { playgroundPage } from '../../lib/playground/site';

export const handler = httpHandler(async (event) => playgroundPage(playgroundDistDir(), event.headers));
