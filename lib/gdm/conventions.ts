// The spec's conventions for alarm and keep-alive messages. They are "seen in messages", not
// constraints, so they come back as warnings beside the errors and never make a message invalid.
// The input may be an invalid message, hence every access is guarded.
import type { GdmWarning } from './issues';
import { kindOf } from './rules';

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function alarmWarnings(message: Json): GdmWarning[] {
  const warnings: GdmWarning[] = [];
  if (!Array.isArray(message.data)) return warnings;
  message.data.forEach((item: unknown, i) => {
    if (!isObject(item)) return;
    const metadata = isObject(item.metadata) ? item.metadata : {};
    if (typeof metadata.active !== 'boolean') {
      warnings.push({
        path: `/data/${i}/metadata/active`,
        code: 'GDM_CONVENTION_ALARM_ACTIVE',
        message: 'an alarm data item should carry metadata.active as a boolean (true while the alarm condition holds).',
      });
    }
    if (typeof metadata.acknowledged !== 'boolean') {
      warnings.push({
        path: `/data/${i}/metadata/acknowledged`,
        code: 'GDM_CONVENTION_ALARM_ACKNOWLEDGED',
        message: 'an alarm data item should carry metadata.acknowledged as a boolean.',
      });
    }
    if (!Array.isArray(item.values)) return;
    item.values.forEach((valueItem: unknown, j) => {
      if (isObject(valueItem) && valueItem.value !== null) {
        warnings.push({
          path: `/data/${i}/values/${j}/value`,
          code: 'GDM_CONVENTION_ALARM_VALUE_NOT_NULL',
          message:
            'an alarm value should be null: the alarm state travels in the data item metadata (active, acknowledged, state, severity). A missing value means 0 in a base message.',
        });
      }
    });
  });
  return warnings;
}

function keepAliveWarnings(message: Json): GdmWarning[] {
  const warnings: GdmWarning[] = [];
  const data = Array.isArray(message.data) ? (message.data as unknown[]) : [];
  if (data.length !== 1) {
    warnings.push({
      path: '/data',
      code: 'GDM_CONVENTION_KEEP_ALIVE_ITEMS',
      message: `a keep-alive message should have exactly one data item named "keep-alive"; it has ${data.length}.`,
    });
  }
  const item = data[0];
  if (isObject(item)) {
    if (item.name !== 'keep-alive') {
      warnings.push({
        path: '/data/0/name',
        code: 'GDM_CONVENTION_KEEP_ALIVE_NAME',
        message: 'the data item of a keep-alive message should be named "keep-alive".',
      });
    }
    const values = Array.isArray(item.values) ? (item.values as unknown[]) : [];
    const first = values[0];
    if (values.length !== 1 || !isObject(first) || first.value !== null) {
      warnings.push({
        path: '/data/0/values',
        code: 'GDM_CONVENTION_KEEP_ALIVE_VALUE',
        message: 'the keep-alive data item should hold exactly one value item whose value is null.',
      });
    }
    if (isObject(first) && typeof first.deviceTimestamp !== 'string') {
      warnings.push({
        path: '/data/0/values/0/deviceTimestamp',
        code: 'GDM_CONVENTION_KEEP_ALIVE_DEVICE_TIMESTAMP',
        message: 'the keep-alive value item should carry a deviceTimestamp: the time the device was last seen alive.',
      });
    }
  }
  const interval = isObject(message.metadata) ? message.metadata.messageIntervallInMilliseconds : undefined;
  if (!(Number.isSafeInteger(interval) && (interval as number) > 0)) {
    warnings.push({
      path: '/metadata/messageIntervallInMilliseconds',
      code: 'GDM_CONVENTION_KEEP_ALIVE_INTERVAL',
      message:
        'a keep-alive message should announce its interval as a positive integer metadata.messageIntervallInMilliseconds (spelled with two l, as in the spec).',
    });
  }
  return warnings;
}

/** Convention warnings of one message (valid or not); [] for state and event messages. */
export function checkConventions(message: unknown): GdmWarning[] {
  if (!isObject(message) || typeof message.messageType !== 'string') return [];
  const kind = kindOf(message.messageType);
  if (kind === 'alarm') return alarmWarnings(message);
  if (kind === 'keep-alive') return keepAliveWarnings(message);
  return [];
}
