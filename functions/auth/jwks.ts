// GET /.well-known/jwks.json: the local identity provider's public key (deployed, Cognito's).
import { localKey } from '../../lib/wiring/auth';
import { AppError } from '../../lib/core/errors';
import { httpHandler } from '../../lib/http/chain';

export const handler = httpHandler(async () => {
  const key = localKey();
  if (!key) throw new AppError('NOT_FOUND', 'this stage uses the Cognito key set (see docs/auth.md)');
  return { body: { keys: [(await key()).publicJwk] }, headers: { 'cache-control': 'public, max-age=300' } };
});
