// validateMessage: the one entry point for checking a GDM message at a stage. The zod schemas decide
// validity (compiled with z.compile for the hot path: see docs/gdm.md, "Performance"); cloud messages
// are additionally checked for the two derived fields JSON Schema cannot express (uid, nameId).
import * as z from 'zod';
import { checkConventions } from './conventions';
import { nameIdOf, uidOf } from './enrich';
import { explainIssues } from './explain';
import type { GdmError, GdmWarning } from './issues';
import { DEVICE_ID_PATTERN, NAME_ID_PATTERN, STAGES, UID_PATTERN, UUID_PATTERN, type Stage } from './rules';
import { messageSchemas } from './schemas';
import type { MessageByStage } from './types';

export type ValidationResult<S extends Stage = Stage> =
  | {
      readonly ok: true;
      /** A new object (input is not aliased); at the base stage with the defaults applied. */
      readonly message: MessageByStage[S];
      readonly errors: readonly [];
      readonly warnings: readonly GdmWarning[];
    }
  | {
      readonly ok: false;
      readonly message?: undefined;
      /** Every problem found (never empty): schema problems first, then derived-field mismatches. */
      readonly errors: readonly GdmError[];
      readonly warnings: readonly GdmWarning[];
    };

// z.compile generates a specialised parser and falls back to the runtime parser for any input it
// rejects, so error details come from the ordinary zod path and stay identical.
const compiled = {
  base: z.compile(messageSchemas.base),
  edge: z.compile(messageSchemas.edge),
  cloud: z.compile(messageSchemas.cloud),
} as const;

/**
 * Validates one message (already parsed from JSON) at a stage; never throws for any input.
 * @throws TypeError only when `stage` is not base, edge or cloud (a programming error).
 */
export function validateMessage<S extends Stage>(input: unknown, stage: S): ValidationResult<S> {
  if (!(STAGES as readonly string[]).includes(stage))
    throw new TypeError(`unknown GDM stage ${JSON.stringify(stage)}; use base, edge or cloud`);
  const parsed = compiled[stage].safeParse(input);
  const errors: GdmError[] = parsed.success ? [] : explainIssues(parsed.error.issues, input, stage);
  if (stage === 'cloud') errors.push(...derivationErrors(input, errors));
  const warnings = checkConventions(parsed.success ? parsed.data : input);
  if (parsed.success && errors.length === 0) {
    return { ok: true, message: parsed.data as MessageByStage[S], errors: [], warnings };
  }
  return { ok: false, errors, warnings };
}

/**
 * uid and nameId must equal their derivation. Checked on the raw input wherever the fields they
 * derive from are well-formed, so a message with other errors still gets these reported too.
 */
function derivationErrors(input: unknown, found: readonly GdmError[]): GdmError[] {
  if (typeof input !== 'object' || input === null) return [];
  const { agentId, deviceId, uid, data } = input as Record<string, unknown>;
  if (typeof agentId !== 'string' || !UUID_PATTERN.test(agentId)) return [];
  if (typeof deviceId !== 'string' || !DEVICE_ID_PATTERN.test(deviceId)) return [];
  const errors: GdmError[] = [];
  const flagged = new Set(found.map((e) => e.path));
  const expectedUid = uidOf(agentId, deviceId);
  if (typeof uid === 'string' && UID_PATTERN.test(uid) && uid !== expectedUid && !flagged.has('/uid')) {
    errors.push({
      path: '/uid',
      code: 'GDM_UID_MISMATCH',
      message: `uid must be lowercase(agentId) + "_" + lowercase(deviceId) = "${expectedUid}"; got "${uid}".`,
    });
  }
  if (!Array.isArray(data)) return errors;
  data.forEach((item: unknown, i) => {
    if (typeof item !== 'object' || item === null) return;
    const { name, nameId } = item as Record<string, unknown>;
    if (typeof name !== 'string' || typeof nameId !== 'string' || !NAME_ID_PATTERN.test(nameId)) return;
    const expected = nameIdOf(agentId, deviceId, name);
    if (nameId !== expected) {
      errors.push({
        path: `/data/${i}/nameId`,
        code: 'GDM_NAME_ID_MISMATCH',
        message: `nameId must be the SHA-256 (lowercase hex) of "${agentId}_${deviceId}_${name}" = ${expected}; got ${nameId}.`,
      });
    }
  });
  return errors;
}
