// Builds the ingest core's dependencies from configuration (local files or AWS services).
import path from 'node:path';
import { config } from '../core/config';
import { logger } from '../core/logger';
import { ingestRuleEvent, type IngestOutcome } from '../ingest/ingest';
import type { DeadLetter } from '../ingest/ports';
import { fileDeadLetter } from './files/dead-letter';

let deadLetter: DeadLetter | undefined;

function deadLetterPort(): DeadLetter {
  if (!deadLetter) {
    const { DEAD_LETTER_DIR } = config();
    if (!DEAD_LETTER_DIR) throw new Error('DEAD_LETTER_DIR is not set (the S3 dead letter arrives with the ingest issue)');
    deadLetter = fileDeadLetter(path.resolve(DEAD_LETTER_DIR));
  }
  return deadLetter;
}

export async function ingestFromRule(event: unknown): Promise<IngestOutcome> {
  return ingestRuleEvent(event, {
    deadLetter: deadLetterPort(),
    now: () => new Date(),
    maxPayloadBytes: 128 * 1024,
    log: (message, attributes) => logger.info(message, attributes),
  });
}
