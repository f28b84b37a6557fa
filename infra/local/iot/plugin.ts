// osls plugin: during `osls offline start`, runs the local MQTT broker and IoT rules for every
// function with an `iot` event. Settings: custom.localIot.{host, port, dataDir}.
import path from 'node:path';
import { startBroker, type RuleBinding, type RunningBroker } from './broker';

interface ServerlessLike {
  service: {
    custom?: Record<string, unknown>;
    getAllFunctions(): string[];
    getFunction(key: string): { name?: string; events?: Array<Record<string, unknown>> };
  };
  serviceDir?: string;
  config?: { servicePath?: string };
}

interface LocalIotSettings {
  host?: string;
  port?: number | string;
  lambdaPort?: number | string;
  dataDir?: string;
}

export default class LocalIotPlugin {
  readonly hooks: Record<string, () => Promise<void>>;
  private broker: RunningBroker | undefined;

  constructor(
    private readonly serverless: ServerlessLike,
    private readonly options: Record<string, unknown>,
  ) {
    this.hooks = {
      'offline:start:init': () => this.start(),
      'offline:start:end': () => this.stop(),
    };
  }

  private rules(): RuleBinding[] {
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
      log: (message) => console.error(`[local-iot] ${message}`),
    });
    console.error(`[local-iot] MQTT broker on mqtt://${host}:${port}; rules: ${rules.map((r) => `${r.functionKey} <- ${r.sql}`).join(' | ') || 'none'}`);
  }

  private async stop(): Promise<void> {
    await this.broker?.close();
    this.broker = undefined;
  }
}
