// The event the IoT topic rule sends (SQL in serverless.yml):
//   SELECT encode(*, 'base64') AS payload, topic(2) AS agentId, clientid() AS clientId,
//          timestamp() AS receivedAt FROM 'gdm/+/messages'
// The payload travels base64-encoded so that a payload that is not JSON still reaches the
// function and is dead-lettered with its reason instead of failing inside the rule.
import { z } from 'zod';

export const ruleEventSchema = z.object({
  payload: z.string(),
  agentId: z.string().optional(),
  clientId: z.string().optional(),
  receivedAt: z.number().optional(),
});

export type RuleEvent = z.infer<typeof ruleEventSchema>;
