// Public API of the GDM release-01 library (docs/gdm.md). Typical ingest use:
//   const result = validateMessage(payload, 'edge');
//   if (!result.ok) deadLetter(result.errors);
//   else store(toCloud(result.message, { now: () => new Date(), agentId, ingestionId }));
export { validateMessage, type ValidationResult } from './validate';
export {
  toEdge,
  toCloud,
  uidOf,
  nameIdOf,
  GdmEnrichmentError,
  type Clock,
  type ToEdgeOptions,
  type ToCloudOptions,
} from './enrich';
export { checkConventions } from './conventions';
export {
  ERROR_CODES,
  WARNING_CODES,
  toPointer,
  type GdmIssue,
  type GdmError,
  type GdmWarning,
  type GdmErrorCode,
  type GdmWarningCode,
} from './issues';
export {
  STAGES,
  MESSAGE_KINDS,
  SCHEMA_RELEASE,
  DEFAULT_MESSAGE_TYPE,
  DEFAULT_MESSAGE_VERSION,
  DEFAULT_VALUE,
  kindOf,
  type Stage,
  type MessageKind,
} from './rules';
export { messageSchemas, baseMessageSchema, edgeMessageSchema, cloudMessageSchema } from './schemas';
export { jsonSchemaFor, JSON_SCHEMA_FILES } from './json-schema';
export type {
  BaseMessage,
  EdgeMessage,
  CloudMessage,
  DataItem,
  CloudDataItem,
  ValueItem,
  GdmValue,
  GdmMetadata,
  GdmMessage,
  MessageByStage,
} from './types';
