// PUT /maintenance/v1/plants/{plantId}/parts/{partId}/stock-level: replaces the part's stock level
// (history kept); answers the write envelope with the new level and its version as ETag.
import { maintenanceDeps } from '../../lib/wiring/maintenance';
import { httpHandler } from '../../lib/http/chain';
import { successBody } from '../../lib/http/envelope';
import { pathParam } from '../../lib/http/request';
import { setStockLevel } from '../../lib/maintenance/stock';

export const handler = httpHandler(
  async (event) => {
    const level = await setStockLevel(
      maintenanceDeps(),
      event.caller,
      pathParam(event, 'plantId'),
      pathParam(event, 'partId'),
      event.jsonBody,
      event.headers['if-match'],
    );
    const { plantId: _plant, partId, ...rest } = level;
    return { body: successBody([{ id: partId, ...rest }]), headers: { etag: `"${level.version}"` } };
  },
  { jsonBody: true, maxBodyBytes: 16 * 1024, authorized: true },
);
