// Lambda REQUEST authorizer (payload 2.0, simple responses) of the telemetry query API.
import type { APIGatewayRequestAuthorizerEventV2 } from 'aws-lambda';
import { authorizerDeps } from '../../lib/wiring/auth';
import { authorizeQuery, type SimpleAuthorizerResult } from '../../lib/auth/authorize';

export const handler = (event: APIGatewayRequestAuthorizerEventV2): Promise<SimpleAuthorizerResult> =>
  authorizeQuery(event, authorizerDeps());
