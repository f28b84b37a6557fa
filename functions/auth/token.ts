// POST /oauth2/token: the local identity provider (deployed, Cognito's token endpoint is used).
import { tokenEndpointDeps } from '../../lib/wiring/auth';
import { issueToken } from '../../lib/auth/token-endpoint';
import { AppError } from '../../lib/core/errors';
import { httpHandler } from '../../lib/http/chain';

export const handler = httpHandler(async (event) => {
  const deps = tokenEndpointDeps();
  if (!deps) throw new AppError('NOT_FOUND', 'this stage uses the Cognito token endpoint (see docs/auth.md)');
  return issueToken({ headers: event.headers, body: event.body ?? '' }, deps);
});
