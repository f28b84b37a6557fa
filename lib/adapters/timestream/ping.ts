// Health probe of the deployed telemetry store: the States table is reachable.
import { DescribeTableCommand, TimestreamWriteClient } from '@aws-sdk/client-timestream-write';
import { sdkClientConfig } from '../sdk-config';

let client: TimestreamWriteClient | undefined;

export async function pingTimestream(database: string, table: string): Promise<void> {
  client ??= new TimestreamWriteClient(sdkClientConfig({}));
  const out = await client.send(new DescribeTableCommand({ DatabaseName: database, TableName: table }));
  if (out.Table?.TableStatus !== 'ACTIVE')
    throw new Error(`Timestream table ${database}.${table} is ${out.Table?.TableStatus ?? 'missing'}`);
}
