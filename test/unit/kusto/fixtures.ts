// What the Kusto route's unit tests share: one request's trace and the query settings of a stage.
import type { KustoTrace } from '../../../lib/kusto/chain';
import type { QuerySettings } from '../../../lib/query-api/service';

export const trace: KustoTrace = {
  clientRequestId: 'KNC.execute;1',
  activityId: '00000000-0000-4000-8000-000000000001',
  receivedAt: new Date('2026-03-10T12:00:00.000Z'),
};

export const settings: QuerySettings = {
  rowLimit: 100,
  timeoutMs: 5000,
  maxWindowDays: 31,
  now: () => new Date('2026-03-10T12:00:00.000Z'),
};
