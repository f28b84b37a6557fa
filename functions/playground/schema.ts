// GET /insights/v1/telemetry/schema: the tables, columns and functions the query API knows, for
// the playground's editor and other tools (behind the query authorizer, like the queries).
import { httpHandler } from '../../lib/http/chain';
import { playgroundSchema } from '../../lib/playground/schema';

export const handler = httpHandler(
  async () => ({ body: { data: playgroundSchema() }, headers: { 'cache-control': 'private, max-age=300' } }),
  { authorized: true },
);
