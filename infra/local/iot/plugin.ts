// osls plugin: during `osls offline start`, runs the local MQTT broker and the IoT rules: every
// AWS::IoT::TopicRule resource whose Lambda action targets a function of the service (the rule
// the stack deploys, infra/resources/iot.yml), and every function `iot` event.
// Settings: custom.localIot.{host, port, dataDir}.
//
// It also orders the stop (docs/local-stack.md): on SIGINT/SIGTERM it first stops the broker (no
// new messages; the batch in flight finishes; the rest stays journaled), then serverless-offline's
// HTTP and Lambda servers, and only then lets serverless-dynamodb stop DynamoDB Local. It is listed
// before serverless-dynamodb in serverless.yml so that its `before:offline:start:end` runs first.
// And it watches its parent: when the process that started the stack dies (even by SIGKILL), the
// stack stops itself the same orderly way, so nothing is left running.
import path from 'node:path';
import { startBroker, type RuleBinding, type RunningBroker } from './broker';

interface ServerlessLike {
  pluginManager?: { plugins?: unknown[] };
  service: {
    custom?: Record<string, unknown>;
    getAllFunctions(): string[];
    getFunction(key: string): { name?: string; events?: Array<Record<string, unknown>> };
    resources?: { Resources?: Record<string, unknown> } | Array<{ Resources?: Record<string, unknown> }>;
  };
  getProvider?(name: 'aws'): { naming: { getLambdaLogicalId(functionKey: string): string } };
  serviceDir?: string;
  config?: { servicePath?: string };
}

interface LocalIotSettings {
  host?: string;
  port?: number | string;
  lambdaPort?: number | string;
  dataDir?: string;
}

/** How often the stack checks that the process that started it is still there. */
const PARENT_CHECK_MS = 1000;

export default class LocalIotPlugin {
  readonly hooks: Record<string, () => Promise<void>>;
  private broker: RunningBroker | undefined;
  private parentWatch: NodeJS.Timeout | undefined;

  constructor(
    private readonly serverless: ServerlessLike,
    private readonly options: Record<string, unknown>,
  ) {
    this.hooks = {
      'offline:start:init': () => this.start(),
      'before:offline:start:end': () => this.stop(),
    };
  }

  private rules(): RuleBinding[] {
    return [...this.resourceRules(), ...this.eventRules()];
  }

  private resourceRules(): RuleBinding[] {
    const service = this.serverless.service;
    const naming = this.serverless.getProvider?.('aws').naming;
    const byLogicalId = new Map(
      service
        .getAllFunctions()
        .map((key) => [
          naming ? naming.getLambdaLogicalId(key) : `${key[0]?.toUpperCase()}${key.slice(1)}LambdaFunction`,
          key,
        ]),
    );
    const fragments = Array.isArray(service.resources) ? service.resources : [service.resources ?? {}];
    const resources = Object.assign({}, ...fragments.map((f) => f.Resources ?? {})) as Record<string, unknown>;
    return topicRuleBindings(resources, byLogicalId).map((b) => ({
      ...b,
      functionName: service.getFunction(b.functionKey).name ?? b.functionKey,
    }));
  }

  private eventRules(): RuleBinding[] {
    const service = this.serverless.service;
    return service.getAllFunctions().flatMap((key) => {
      const fn = service.getFunction(key);
      return (fn.events ?? []).flatMap((event) => {
        const iot = event.iot as { sql?: string; enabled?: boolean } | undefined;
        if (!iot || iot.enabled === false) return [];
        if (!iot.sql) throw new Error(`function '${key}': iot event without sql`);
        return [{ functionKey: key, functionName: fn.name ?? key, sql: iot.sql }];
      });
    });
  }

  private async start(): Promise<void> {
    const settings = (this.serverless.service.custom?.localIot ?? {}) as LocalIotSettings;
    const offline = (this.serverless.service.custom?.['serverless-offline'] ?? {}) as { lambdaPort?: number | string };
    const root = this.serverless.serviceDir ?? this.serverless.config?.servicePath ?? process.cwd();
    const host = settings.host ?? '127.0.0.1';
    const port = Number(settings.port ?? 1883);
    const lambdaPort = Number(this.options.lambdaPort ?? offline.lambdaPort ?? 3002);
    const dataDir = path.resolve(root, settings.dataDir ?? '.data');
    const rules = this.rules();
    this.broker = await startBroker({
      host,
      port,
      lambdaPort,
      rules,
      deadLetterDir: path.join(dataDir, 'dead-letter'),
      journalDir: path.join(dataDir, 'iot-journal'),
      log: (message) => console.error(`[local-iot] ${message}`),
    });
    console.error(
      `[local-iot] MQTT broker on mqtt://${host}:${port}; rules: ${rules.map((r) => `${r.functionKey} <- ${r.sql}`).join(' | ') || 'none'}`,
    );
    this.watchParent();
  }

  /** A parent that died leaves this process to init (or a subreaper): stop as on Ctrl-C. */
  private watchParent(): void {
    const parent = process.ppid;
    this.parentWatch = setInterval(() => {
      if (process.ppid === parent) return;
      console.error(`[local-iot] the process that started the stack (pid ${parent}) is gone; stopping`);
      clearInterval(this.parentWatch);
      process.kill(process.pid, 'SIGTERM');
    }, PARENT_CHECK_MS);
    this.parentWatch.unref();
  }

  private async stop(): Promise<void> {
    clearInterval(this.parentWatch);
    await this.broker?.close();
    this.broker = undefined;
    // serverless-offline next (its own end hook runs later and exits the process): requests in
    // flight finish while DynamoDB Local is still up.
    const offline = this.serverless.pluginManager?.plugins?.find(
      (p) => (p as { constructor?: { name?: string } }).constructor?.name === 'ServerlessOffline',
    ) as { end?: (skipExit: boolean) => Promise<void> } | undefined;
    await offline?.end?.(true);
  }
}

interface TopicRuleResource {
  Type?: string;
  Properties?: {
    TopicRulePayload?: {
      Sql?: string;
      RuleDisabled?: boolean;
      AwsIotSqlVersion?: string;
      Actions?: Array<{ Lambda?: { FunctionArn?: unknown } }>;
    };
  };
}

/**
 * The rules of AWS::IoT::TopicRule resources whose Lambda action names a function of the service
 * by `Fn::GetAtt: [<Function>LambdaFunction, Arn]`. @throws Error for a rule this plugin cannot run
 * faithfully (another SQL version, a Lambda action it cannot map to a function).
 */
export function topicRuleBindings(
  resources: Readonly<Record<string, unknown>>,
  functionsByLogicalId: ReadonlyMap<string, string>,
): Array<Omit<RuleBinding, 'functionName'>> {
  return Object.entries(resources).flatMap(([logicalId, value]) => {
    const resource = value as TopicRuleResource;
    if (resource.Type !== 'AWS::IoT::TopicRule') return [];
    const payload = resource.Properties?.TopicRulePayload;
    if (!payload?.Sql || payload.RuleDisabled === true) return [];
    if (payload.AwsIotSqlVersion !== undefined && payload.AwsIotSqlVersion !== '2016-03-23')
      throw new Error(
        `IoT rule ${logicalId}: SQL version ${payload.AwsIotSqlVersion} is not supported locally (only 2016-03-23)`,
      );
    return (payload.Actions ?? []).flatMap((action) => {
      if (!action.Lambda) return [];
      const getAtt = (action.Lambda.FunctionArn as { 'Fn::GetAtt'?: unknown } | undefined)?.['Fn::GetAtt'];
      const target = Array.isArray(getAtt) ? functionsByLogicalId.get(String(getAtt[0])) : undefined;
      if (target === undefined)
        throw new Error(
          `IoT rule ${logicalId}: its Lambda action must be { Fn::GetAtt: [<Function>LambdaFunction, Arn] } of a function of this service`,
        );
      return [{ functionKey: target, sql: payload.Sql as string }];
    });
  });
}
