// The main table's definition, read from the same CloudFormation fragment that deploys it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';
import { parse } from 'yaml';

const fragment = path.resolve(import.meta.dirname, '../../infra/resources/dynamodb.yml');

export function mainTableDefinition(tableName: string): CreateTableCommandInput {
  const doc = parse(readFileSync(fragment, 'utf8')) as {
    Resources: { MainTable: { Properties: Record<string, unknown> } };
  };
  const {
    TimeToLiveSpecification: _ttl,
    PointInTimeRecoverySpecification: _pitr,
    SSESpecification: _sse,
    DeletionProtectionEnabled: _dp,
    Tags: _tags,
    ...props
  } = doc.Resources.MainTable.Properties;
  return { ...props, TableName: tableName } as CreateTableCommandInput;
}
