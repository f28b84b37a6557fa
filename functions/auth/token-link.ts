// GET /maintenance/v1/token-links/{id}: hands out a new maintenance token once; 410 afterwards.
import { registry } from '../../lib/adapters/dynamodb/registry';
import { redeemTokenLink } from '../../lib/registry/tokens';
import { httpHandler } from '../../lib/http/chain';

export const handler = httpHandler(async (event) => {
  const redeemed = await redeemTokenLink(registry(), event.pathParameters?.id ?? '', new Date());
  return {
    body: {
      tokenType: 'Bearer',
      accessToken: redeemed.accessToken,
      plantId: redeemed.plantId,
      expiresAt: redeemed.expiresAt,
    },
    headers: { 'cache-control': 'no-store', pragma: 'no-cache' },
  };
});
