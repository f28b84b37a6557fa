// Structured JSON logs (Powertools for AWS Lambda logger): one logger per container.
// Never log credentials: request headers are not logged, and callers log ids, not tokens.
import { Logger } from '@aws-lambda-powertools/logger';

export const logger = new Logger({ serviceName: 'industrial-insights' });
