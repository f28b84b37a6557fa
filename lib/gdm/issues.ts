// The stable vocabulary of validation results: error and warning codes (each with the sentence that
// docs/gdm.md repeats), the issue shape, and JSON Pointer paths (RFC 6901).

/** Error codes. Stable: clients and dead-letter consumers may branch on them. */
export const ERROR_CODES = {
  GDM_TYPE: 'A message, field or element has the wrong JSON type (for example a number where a string is expected).',
  GDM_REQUIRED: 'A field required at this stage is missing.',
  GDM_FIELD_NOT_ALLOWED_AT_STAGE:
    'A field that a later stage sets is present (for example agentTimestamp in a base message).',
  GDM_UNKNOWN_FIELD: 'A field that release-01 does not define at this place; free-form data belongs in metadata.',
  GDM_DEVICE_ID_FORMAT: 'deviceId is empty or has a character other than letters, digits, _ - . # =.',
  GDM_MESSAGE_ID_FORMAT: 'messageId is not a lowercase hexadecimal UUID (8-4-4-4-12, at most 36 characters).',
  GDM_MESSAGE_TYPE_FORMAT:
    'messageType does not start with state, alarm, event or keep-alive, or a custom segment is malformed.',
  GDM_MESSAGE_VERSION_FORMAT: 'messageVersion is not digits.digits with an optional third .digits group.',
  GDM_DATE_TIME_FORMAT:
    'A timestamp is not an ISO 8601 date-time with seconds, at most 6 fractional digits and a UTC offset.',
  GDM_AGENT_ID_FORMAT: 'agentId is not a lowercase hexadecimal UUID (8-4-4-4-12).',
  GDM_INGESTION_ID_FORMAT: 'ingestionId is empty or has a character other than letters, digits, _ - .',
  GDM_UID_FORMAT: 'uid is not lowercase(agentId) + "_" + lowercase(deviceId) in form.',
  GDM_UID_MISMATCH: 'uid is well-formed but differs from lowercase(agentId) + "_" + lowercase(deviceId).',
  GDM_NAME_EMPTY: 'A data item name is the empty string.',
  GDM_NAME_ID_FORMAT: 'nameId is not 64 lowercase hexadecimal characters.',
  GDM_NAME_ID_MISMATCH: 'nameId differs from the SHA-256 of agentId + "_" + deviceId + "_" + name.',
  GDM_INVALID_JSON: 'The input is not JSON (reported by the gdm command line, never by the library).',
} as const;

/** Warning codes: the spec's conventions, which are not constraints. A warning never invalidates. */
export const WARNING_CODES = {
  GDM_CONVENTION_ALARM_VALUE_NOT_NULL: 'An alarm value item carries a value other than null.',
  GDM_CONVENTION_ALARM_ACTIVE: 'An alarm data item lacks a boolean metadata.active.',
  GDM_CONVENTION_ALARM_ACKNOWLEDGED: 'An alarm data item lacks a boolean metadata.acknowledged.',
  GDM_CONVENTION_KEEP_ALIVE_ITEMS: 'A keep-alive message does not have exactly one data item.',
  GDM_CONVENTION_KEEP_ALIVE_NAME: 'The data item of a keep-alive message is not named keep-alive.',
  GDM_CONVENTION_KEEP_ALIVE_VALUE: 'A keep-alive data item does not hold exactly one value item with a null value.',
  GDM_CONVENTION_KEEP_ALIVE_DEVICE_TIMESTAMP: 'A keep-alive value item has no deviceTimestamp.',
  GDM_CONVENTION_KEEP_ALIVE_INTERVAL:
    'A keep-alive message lacks a positive integer metadata.messageIntervallInMilliseconds.',
} as const;

export type GdmErrorCode = keyof typeof ERROR_CODES;
export type GdmWarningCode = keyof typeof WARNING_CODES;

export interface GdmIssue<C extends string = GdmErrorCode | GdmWarningCode> {
  /** JSON Pointer to the offending place, "" for the whole message. */
  readonly path: string;
  readonly code: C;
  /** A sentence that says what is wrong and what to write instead. */
  readonly message: string;
}

export type GdmError = GdmIssue<GdmErrorCode>;
export type GdmWarning = GdmIssue<GdmWarningCode>;

/** JSON Pointer of a path: ['data', 2, 'values'] -> '/data/2/values' (with ~0 and ~1 escapes). */
export function toPointer(path: readonly PropertyKey[]): string {
  let out = '';
  for (const segment of path) out += '/' + String(segment).replace(/~/g, '~0').replace(/\//g, '~1');
  return out;
}

/** A short, quoted rendering of a received value for error messages. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') {
    const shown = value.length > 48 ? `${value.slice(0, 45)}...` : value;
    return `the string ${JSON.stringify(shown)}`;
  }
  return `the ${typeof value} ${String(value)}`;
}
