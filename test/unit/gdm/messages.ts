// Baseline valid messages for the GDM unit tests, and a helper that changes one place of a copy.
import { toCloud, type BaseMessage, type CloudMessage, type EdgeMessage } from '../../../lib/gdm';

export const AGENT_ID = '6f1c2b3a-4d5e-4f60-8a7b-9c0d1e2f3a4b';
export const MESSAGE_ID = '3f2b9c1e-1a2b-4c3d-8e9f-0123456789ab';
/** printf '%s' '6f1c2b3a-4d5e-4f60-8a7b-9c0d1e2f3a4b_Press-7_temperature' | sha256sum */
export const TEMPERATURE_NAME_ID = '447bfcbfcbf5754f602b0733fb5c8859e6e45a5847b047b4e281ef465bf79f17';

export const BASE: BaseMessage = {
  messageId: MESSAGE_ID,
  messageType: 'state',
  messageVersion: '1.0',
  metadata: { plantId: 'plant-1' },
  data: [
    {
      name: 'temperature',
      metadata: { unit: 'degC' },
      values: [
        { value: 21.5, deviceTimestamp: '2024-05-01T10:00:00.123456Z' },
        { value: 22, deviceTimestamp: null },
      ],
    },
  ],
};

export const EDGE: EdgeMessage = { deviceId: 'Press-7', agentTimestamp: '2024-05-01T10:00:01.000Z', ...BASE };

export const CLOUD: CloudMessage = toCloud(EDGE, {
  now: () => new Date('2024-05-01T10:00:02.000Z'),
  agentId: AGENT_ID,
  ingestionId: 'iot-core',
});

export const REMOVE = Symbol('remove');

/** A deep copy of message with the value at path replaced (or removed with REMOVE). */
export function changed(message: unknown, path: readonly (string | number)[], value: unknown): Record<string, unknown> {
  const copy = structuredClone(message) as Record<string, unknown>;
  let at: Record<string | number, unknown> = copy;
  for (const segment of path.slice(0, -1)) at = at[segment] as Record<string | number, unknown>;
  const last = path[path.length - 1] as string | number;
  if (value === REMOVE) delete at[last];
  else at[last] = value;
  return copy;
}
