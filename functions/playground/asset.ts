// GET /insights/v1/telemetry/playground/{file+}: the page's scripts, styles and fonts, from the
// build in lib/playground/dist (public, like the page).
import { httpHandler } from '../../lib/http/chain';
import { pathParam } from '../../lib/http/request';
import { playgroundDistDir } from '../../lib/playground/dist-dir';
import { playgroundAsset } from '../../lib/playground/site';

export const handler = httpHandler(async (event) =>
  playgroundAsset(playgroundDistDir(), pathParam(event, 'file'), event.headers),
);
