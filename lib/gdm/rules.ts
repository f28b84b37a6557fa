// The textual rules of GDM release-01 (spec Area A, field tables), in one place so the zod schemas,
// the JSON Schemas generated from them and the hand-written hot-path validator share the very same
// regular expressions. Every pattern is valid with the `u` flag, because ajv compiles JSON Schema
// `pattern`s that way: a character class therefore ends in `-` rather than escaping it.

export const STAGES = ['base', 'edge', 'cloud'] as const;
export type Stage = (typeof STAGES)[number];

export const MESSAGE_KINDS = ['state', 'alarm', 'event', 'keep-alive'] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];

/** Defaults of the spec. Applied only at the base stage (see docs/gdm.md, "Defaults and required"). */
export const DEFAULT_MESSAGE_TYPE = 'state';
export const DEFAULT_MESSAGE_VERSION = '1.0';
export const DEFAULT_VALUE = 0;

/** The schema release these rules belong to (spec, Versioning). */
export const SCHEMA_RELEASE = 'release-01';

/** Letters, digits, underscore, hyphen, dot, hash, equals; ASCII letters only (uid lower-cases it). */
export const DEVICE_ID_PATTERN = /^[A-Za-z0-9_.#=-]+$/;

/** Lowercase hex in UUID layout 8-4-4-4-12 (length 36, so "max 36" holds by construction). */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const UUID_MAX_LENGTH = 36;

/** A kind, then optional `:`-separated custom segments of letters, digits and `_ - . = /`. */
export const MESSAGE_TYPE_PATTERN = /^(?:state|alarm|event|keep-alive)(?::[A-Za-z0-9_.=/-]+)*$/;

/** digits.digits with an optional third group. */
export const MESSAGE_VERSION_PATTERN = /^[0-9]+\.[0-9]+(?:\.[0-9]+)?$/;

/** Name of the cloud message hub: letters, digits, underscore, hyphen, dot. */
export const INGESTION_ID_PATTERN = /^[A-Za-z0-9_.-]+$/;

/** 64 lowercase hex characters (SHA-256). */
export const NAME_ID_PATTERN = /^[0-9a-f]{64}$/;

/** lowercase(agentId) + '_' + lowercase(deviceId): the form only; the derivation is checked apart. */
export const UID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}_[a-z0-9_.#=-]+$/;

// ISO 8601 date-time with a UTC offset: calendar-checked date (leap years included), `T`, time with
// seconds, 1-6 fractional digits, then `Z` or ±hh:mm. Upper-case `T`/`Z` only and no leap second,
// which keeps the pattern a strict subset of JSON Schema's `date-time` format (RFC 3339).
const LEAP_DAY = '(?:\\d\\d(?:[2468][048]|[13579][26]|0[48])|(?:[02468][048]|[13579][26])00)-02-29';
const OTHER_DAYS =
  '\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|02-(?:0[1-9]|1\\d|2[0-8]))';
const TIME = '(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d{1,6})?';
const OFFSET = '(?:Z|[+-](?:[01]\\d|2[0-3]):[0-5]\\d)';
export const DATE_TIME_PATTERN = new RegExp(`^(?:${LEAP_DAY}|${OTHER_DAYS})T${TIME}${OFFSET}$`);

/** The kind of a message type (`alarm:press/overheat` -> `alarm`), or undefined when malformed. */
export function kindOf(messageType: string): MessageKind | undefined {
  const colon = messageType.indexOf(':');
  const head = colon === -1 ? messageType : messageType.slice(0, colon);
  return (MESSAGE_KINDS as readonly string[]).includes(head) ? (head as MessageKind) : undefined;
}
