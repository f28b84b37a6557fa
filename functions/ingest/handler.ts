// IoT rule action target: one MQTT message per invocation (see infra/resources/iot.yml for the rule).
import { ingestFromRule } from '../../lib/adapters/ingest-wiring';

export const handler = ingestFromRule;
