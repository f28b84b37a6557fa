// Turns zod issues into GDM errors: a stable code, a JSON Pointer and a sentence a person can act on.
// The zod schema decides *whether* a message is valid; this module only decides how to say why not,
// from where the issue sits (message, data item or value item) and which field it names.
import type * as z from 'zod';
import { DATA_ITEM_FIELDS, MESSAGE_FIELDS, SET_BY, VALUE_ITEM_FIELDS, type PresenceByStage } from './fields';
import { describeValue, toPointer, type GdmError, type GdmErrorCode } from './issues';
import type { Stage } from './rules';

type Owner = 'message' | 'data item' | 'value item';

interface FormatRule {
  readonly code: GdmErrorCode;
  readonly rule: string;
}

const UUID_RULE = 'a lowercase hexadecimal UUID 8-4-4-4-12, e.g. "0b9e1c2d-3f4a-4b5c-8d6e-7f8091a2b3c4"';
const DATE_TIME_RULE =
  'an ISO 8601 date-time with seconds and a UTC offset, e.g. "2024-05-01T10:00:00.123Z" or "2024-05-01T12:00:00+02:00" (a real calendar date, upper-case T and Z, at most 6 fractional digits)';

const FORMAT_RULES: Readonly<Record<string, FormatRule>> = {
  deviceId: { code: 'GDM_DEVICE_ID_FORMAT', rule: 'one or more ASCII letters, digits or the characters _ - . # =' },
  messageId: { code: 'GDM_MESSAGE_ID_FORMAT', rule: UUID_RULE },
  agentId: { code: 'GDM_AGENT_ID_FORMAT', rule: UUID_RULE },
  messageType: {
    code: 'GDM_MESSAGE_TYPE_FORMAT',
    rule: 'state, alarm, event or keep-alive, optionally followed by ":"-separated custom segments of letters, digits and _ - . = / (e.g. "alarm:press/overheat")',
  },
  messageVersion: {
    code: 'GDM_MESSAGE_VERSION_FORMAT',
    rule: 'digits.digits with an optional third .digits group, e.g. "1.0" or "1.0.2"',
  },
  agentTimestamp: { code: 'GDM_DATE_TIME_FORMAT', rule: DATE_TIME_RULE },
  ingestionTimestamp: { code: 'GDM_DATE_TIME_FORMAT', rule: DATE_TIME_RULE },
  deviceTimestamp: { code: 'GDM_DATE_TIME_FORMAT', rule: DATE_TIME_RULE },
  ingestionId: { code: 'GDM_INGESTION_ID_FORMAT', rule: 'one or more ASCII letters, digits or the characters _ - .' },
  uid: { code: 'GDM_UID_FORMAT', rule: 'lowercase(agentId) + "_" + lowercase(deviceId)' },
  nameId: {
    code: 'GDM_NAME_ID_FORMAT',
    rule: '64 lowercase hexadecimal characters (SHA-256 of agentId_deviceId_name)',
  },
  name: { code: 'GDM_NAME_EMPTY', rule: 'at least one character' },
};

const EXPECTED_TYPES: Readonly<Record<string, string>> = {
  metadata: 'a JSON object',
  data: 'an array of data items',
  values: 'an array of value items',
  value: 'a string, number, boolean, array or null',
  deviceTimestamp: 'a date-time string or null',
};

const FIELDS_OF: Readonly<Record<Owner, Readonly<Record<string, PresenceByStage>>>> = {
  message: MESSAGE_FIELDS,
  'data item': DATA_ITEM_FIELDS,
  'value item': VALUE_ITEM_FIELDS,
};

/** Where a path points: the object that owns it and the field name (undefined for an element). */
/** "a base", "an edge", "a cloud". */
function aStage(stage: Stage): string {
  return `${stage === 'edge' ? 'an' : 'a'} ${stage}`;
}

function placeOf(path: readonly PropertyKey[]): { readonly owner: Owner; readonly field: string | undefined } {
  const owner: Owner = path.length <= 1 ? 'message' : path.length <= 3 ? 'data item' : 'value item';
  const field = path.length % 2 === 1 ? String(path[path.length - 1]) : undefined;
  return { owner, field };
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let at: unknown = input;
  for (const segment of path) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<PropertyKey, unknown>)[segment];
  }
  return at;
}

function allowedFields(owner: Owner, stage: Stage): string[] {
  return Object.entries(FIELDS_OF[owner])
    .filter(([, presence]) => presence[stage] !== 'absent')
    .map(([name]) => name);
}

/** A known field within edit distance 2 of an unknown one (case differences count as 0). */
function suggestion(unknown: string): string | undefined {
  const known = [...Object.keys(MESSAGE_FIELDS), ...Object.keys(DATA_ITEM_FIELDS), ...Object.keys(VALUE_ITEM_FIELDS)];
  return (
    known.find((k) => k.toLowerCase() === unknown.toLowerCase()) ?? known.find((k) => editDistance(k, unknown) <= 2)
  );
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

function unknownField(path: readonly PropertyKey[], key: string, stage: Stage): GdmError {
  const { owner } = placeOf([...path, key]);
  const hint = suggestion(key);
  const didYouMean = hint !== undefined && hint !== key ? ` Did you mean "${hint}"?` : '';
  return {
    path: toPointer([...path, key]),
    code: 'GDM_UNKNOWN_FIELD',
    message: `unknown field "${key}" in ${owner === 'message' ? '' : `a ${owner} of `}${aStage(stage)} message; allowed: ${allowedFields(owner, stage).join(', ')}. Free-form data belongs in metadata.${didYouMean}`,
  };
}

function explainOne(issue: z.core.$ZodIssue, input: unknown, stage: Stage): GdmError {
  const path = issue.path;
  const { owner, field } = placeOf(path);
  const received = valueAt(input, path);
  const pointer = toPointer(path);
  const name =
    field ?? (path.length === 0 ? 'the message' : `each element of ${owner === 'data item' ? 'data' : 'values'}`);
  if (issue.code === 'invalid_type' && issue.expected === 'never' && field !== undefined) {
    return {
      path: pointer,
      code: 'GDM_FIELD_NOT_ALLOWED_AT_STAGE',
      message: `${field} must not appear in ${aStage(stage)} message: it is set by ${SET_BY[field] ?? 'a later stage'}. Remove it, or validate the message at the stage that sets it.`,
    };
  }
  if (received === undefined) {
    const where = owner === 'message' ? `${aStage(stage)} message` : `every ${owner} of ${aStage(stage)} message`;
    return {
      path: pointer,
      code: 'GDM_REQUIRED',
      message: `${name} is required in ${where}.${requiredHint(field, stage)}`,
    };
  }
  const format = field === undefined ? undefined : FORMAT_RULES[field];
  if (issue.code === 'invalid_type' || issue.code === 'invalid_union' || format === undefined) {
    const expected = field === undefined ? 'a JSON object' : (EXPECTED_TYPES[field] ?? 'a string');
    return { path: pointer, code: 'GDM_TYPE', message: `${name} must be ${expected}; got ${describeValue(received)}.` };
  }
  return {
    path: pointer,
    code: format.code,
    message: `${name} must be ${format.rule}; got ${describeValue(received)}.`,
  };
}

function requiredHint(field: string | undefined, stage: Stage): string {
  if (stage === 'base') return '';
  if (field === 'deviceId' || field === 'agentTimestamp')
    return ' The gateway sets it when it enriches a base message (gdm enrich --to edge).';
  if (field === 'messageType' || field === 'messageVersion' || field === 'value') {
    return ' Defaults apply to base messages only; the gateway writes them out.';
  }
  return '';
}

/** Every zod issue as GDM errors; one unknown-keys issue becomes one error per key; duplicates merge. */
export function explainIssues(issues: readonly z.core.$ZodIssue[], input: unknown, stage: Stage): GdmError[] {
  const errors: GdmError[] = [];
  const seen = new Set<string>();
  const add = (error: GdmError): void => {
    const key = `${error.path}\u0000${error.code}`;
    if (seen.has(key)) return;
    seen.add(key);
    errors.push(error);
  };
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') for (const key of issue.keys) add(unknownField(issue.path, key, stage));
    else add(explainOne(issue, input, stage));
  }
  return errors;
}
