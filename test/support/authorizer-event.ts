// An authorizer request event (payload 2.0) as serverless-offline hands it over: the header keeps
// the client's case. Shared by the authorizer tests on fakes and on DynamoDB Local.
import type { AuthorizerEvent } from '../../lib/auth/authorize';

export function requestEvent(
  token: string | undefined,
  options: { plantId?: string; headerName?: string; extraHeaders?: Record<string, string> } = {},
): AuthorizerEvent {
  const headers: Record<string, string> = { ...options.extraHeaders };
  if (token !== undefined) headers[options.headerName ?? 'Authorization'] = `Bearer ${token}`;
  const rawPath =
    options.plantId === undefined
      ? '/insights/v1/telemetry/query/table'
      : `/maintenance/v1/plants/${options.plantId}/tasks`;
  return {
    headers,
    rawPath,
    routeKey: `GET ${rawPath}`,
    pathParameters: options.plantId === undefined ? undefined : { plantId: options.plantId },
  };
}
