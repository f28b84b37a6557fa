// POST /oauth2/token: the local identity provider; deployed, forwarded to Cognito's token endpoint.
import { tokenEndpointDeps, tokenProxyDeps } from '../../lib/wiring/auth';
import { forwardTokenRequest } from '../../lib/auth/token-proxy';
import { issueToken } from '../../lib/auth/token-endpoint';
import { AppError } from '../../lib/core/errors';
import { httpHandler } from '../../lib/http/chain';

export const handler = httpHandler(async (event) => {
  const request = { headers: event.headers, body: event.body ?? '' };
  const local = tokenEndpointDeps();
  if (local) return issueToken(request, local);
  const proxy = tokenProxyDeps();
  if (proxy) return forwardTokenRequest(request, proxy);
  throw new AppError('NOT_FOUND', 'this stage uses the Cognito token endpoint (see docs/auth.md)');
});
