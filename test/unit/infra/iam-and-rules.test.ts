// Per-function roles from declared `access`, and the local IoT rules read from the deployed
// AWS::IoT::TopicRule resource.
import { describe, expect, it } from 'vitest';
import { functionRole, grantStatements, GRANTS, type GrantContext, type GrantName } from '../../../infra/iam/grants';
import { assignRoles, type ServerlessLike } from '../../../infra/iam/plugin';
import { topicRuleBindings } from '../../../infra/local/iot/plugin';
import { zipEntries } from '../../../infra/package/zip';

function service(
  functions: Record<string, { access?: unknown; role?: string; name?: string }>,
): ServerlessLike & { service: { resources: { Resources: Record<string, unknown> } } } {
  return {
    service: {
      getAllFunctions: () => Object.keys(functions),
      getFunction: (key) => functions[key]!,
      resources: { Resources: {} },
      provider: { environment: { TIMESTREAM_DATABASE: 'svc-dev' } },
    },
    getProvider: () => ({
      naming: { getNormalizedFunctionName: (key: string) => `${key[0]!.toUpperCase()}${key.slice(1)}` },
    }),
  };
}

const context: GrantContext = { functionName: 'svc-dev-f', timestreamDatabase: 'svc-dev' };
const everyGrant = Object.keys(GRANTS) as GrantName[];
type Role = {
  Properties: { Policies: Array<{ PolicyDocument: { Statement: Array<{ Action: string[]; Resource: unknown }> } }> };
};

describe('function roles', () => {
  it('gives each function a role with its log group and exactly its grants', () => {
    const role = functionRole('queryTable', ['telemetry:query'], {
      ...context,
      functionName: 'svc-dev-queryTable',
    }) as Role;
    const statements = role.Properties.Policies[0]!.PolicyDocument.Statement;
    expect(statements.flatMap((s) => s.Action)).toEqual([
      'logs:CreateLogStream',
      'logs:PutLogEvents',
      'timestream:Select',
      'timestream:SelectValues',
      'timestream:CancelQuery',
      'timestream:DescribeEndpoints',
    ]);
    expect(JSON.stringify(statements[0])).toContain('log-group:/aws/lambda/svc-dev-queryTable:*');
  });

  it('refuses an unknown grant and a function that declares nothing', () => {
    expect(() => functionRole('f', ['table:everything'], context)).toThrow(
      /function 'f': unknown access 'table:everything'/,
    );
    expect(() => functionRole('f', ['table:write'], context)).toThrow(
      /unknown access 'table:write'; known: table:read, table:put/,
    );
    expect(() => assignRoles(service({ a: { access: [] }, b: {} }))).toThrow(/functions without `access`.*: b/);
  });

  it('points each function at its new role and leaves an explicit role alone', () => {
    const s = service({
      ingest: { access: ['table:read'], name: 'svc-ingest' },
      legacy: { role: 'arn:aws:iam::1:role/x' },
    });
    expect(assignRoles(s)).toEqual(['IngestLambdaRole']);
    expect(s.service.getFunction('ingest').role).toBe('IngestLambdaRole');
    expect(s.service.getFunction('legacy').role).toBe('arn:aws:iam::1:role/x');
    expect(Object.keys(s.service.resources.Resources)).toEqual(['IngestLambdaRole']);
  });

  it('never grants a wildcard action, nor DeleteItem or ConditionCheckItem (no function sends them)', () => {
    const granted = grantStatements(everyGrant, context).flatMap((s) => s.Action);
    expect(granted.filter((a) => a.includes('*'))).toEqual([]);
    expect(granted).not.toContain('dynamodb:DeleteItem');
    expect(granted).not.toContain('dynamodb:ConditionCheckItem');
  });

  it('names Timestream tables by the configured database, so tables the stack did not create are covered', () => {
    const [select] = GRANTS['telemetry:query'](context);
    expect(select!.Resource).toEqual([
      { 'Fn::Sub': 'arn:${AWS::Partition}:timestream:${AWS::Region}:${AWS::AccountId}:database/svc-dev/table/States' },
      { 'Fn::Sub': 'arn:${AWS::Partition}:timestream:${AWS::Region}:${AWS::AccountId}:database/svc-dev/table/Events' },
    ]);
    expect(() => GRANTS['telemetry:write']({ ...context, timestreamDatabase: '' })).toThrow(
      /params.timestreamDatabase/,
    );
  });

  it("writes Lambda's on-failure records only under the function's own prefix", () => {
    const [put] = GRANTS['deadLetter:asyncFailures'](context);
    expect(put!.Resource).toEqual([{ 'Fn::Sub': '${DeadLetterBucket.Arn}/aws/lambda/async/svc-dev-f/*' }]);
  });
});

describe('local IoT rules from topic rule resources', () => {
  const rule = (action: unknown, extra: Record<string, unknown> = {}) => ({
    Type: 'AWS::IoT::TopicRule',
    Properties: {
      TopicRulePayload: { Sql: "SELECT * FROM 'a/+'", AwsIotSqlVersion: '2016-03-23', Actions: [action], ...extra },
    },
  });
  const functions = new Map([['IngestLambdaFunction', 'ingest']]);

  it('binds a rule whose Lambda action names a function of the service', () => {
    expect(
      topicRuleBindings(
        {
          R: rule({ Lambda: { FunctionArn: { 'Fn::GetAtt': ['IngestLambdaFunction', 'Arn'] } } }),
          Other: { Type: 'AWS::S3::Bucket' },
        },
        functions,
      ),
    ).toEqual([{ functionKey: 'ingest', sql: "SELECT * FROM 'a/+'" }]);
  });

  it('skips a disabled rule and refuses what it cannot run faithfully', () => {
    expect(
      topicRuleBindings({ R: rule({ Lambda: { FunctionArn: 'arn:x' } }, { RuleDisabled: true }) }, functions),
    ).toEqual([]);
    expect(() => topicRuleBindings({ R: rule({ Lambda: { FunctionArn: 'arn:aws:lambda:x' } }) }, functions)).toThrow(
      /IoT rule R: its Lambda action/,
    );
    expect(() =>
      topicRuleBindings(
        {
          R: rule(
            { Lambda: { FunctionArn: { 'Fn::GetAtt': ['IngestLambdaFunction', 'Arn'] } } },
            { AwsIotSqlVersion: '2015-10-08' },
          ),
        },
        functions,
      ),
    ).toThrow(/SQL version 2015-10-08/);
  });
});

describe('zip listing', () => {
  it('reads names and sizes from the central directory', () => {
    // A zip holding one stored file "a.txt" with the content "hi".
    const name = Buffer.from('a.txt');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt32LE(2, 18);
    local.writeUInt32LE(2, 22);
    local.writeUInt16LE(name.length, 26);
    const data = Buffer.from('hi');
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt32LE(2, 20);
    central.writeUInt32LE(2, 24);
    central.writeUInt16LE(name.length, 28);
    const centralOffset = local.length + name.length + data.length;
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(1, 8);
    end.writeUInt16LE(1, 10);
    end.writeUInt32LE(central.length + name.length, 12);
    end.writeUInt32LE(centralOffset, 16);
    expect(zipEntries(Buffer.concat([local, name, data, central, name, end]))).toEqual([
      { name: 'a.txt', compressedSize: 2, size: 2 },
    ]);
    expect(() => zipEntries(Buffer.from('not a zip at all, not at all'))).toThrow(/not a zip/);
  });
});
