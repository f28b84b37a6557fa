// The conformance corpus (cases/*.json: Kusto documentation examples), shared by the in-process
// runner (test/unit/query/conformance.test.ts) and the HTTP runner (test/integration/).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { KqlType, QueryErrorCode } from '../../lib/query';

export interface ConformanceCase {
  /** The Kusto documentation page the example comes from. */
  readonly source: string;
  readonly title: string;
  readonly query: string;
  /** Which result table of a batch the case holds (CompileOptions.resultTable); none: a query of one table. */
  readonly resultTable?: number;
  /** Rows are compared in order (the query sorts) or as a multiset. */
  readonly ordered?: boolean;
  readonly expected?: {
    readonly columns: readonly { name: string; type: KqlType }[];
    readonly rows: readonly unknown[][];
  };
  /** The query must be rejected with this code; the message (`line:col: ...`) must include messageIncludes. */
  readonly error?: { readonly code: QueryErrorCode; readonly messageIncludes?: string };
  /** A behaviour the engine does not match yet: the case must still fail, so that a fix is noticed. */
  readonly knownGap?: string;
}

const dir = path.resolve(import.meta.dirname, 'cases');

export function loadCases(): { readonly file: string; readonly c: ConformanceCase }[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((file) => ({ file, c: JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as ConformanceCase }));
}

/** Rows as a sorted list of JSON texts, for comparing results whose order Kusto leaves open. */
export const canonical = (rows: readonly unknown[][]): string[] => rows.map((r) => JSON.stringify(r)).sort();

export const caseName = (file: string, c: ConformanceCase): string =>
  `${file.replace(/\.json$/, '')}: ${c.title} (${c.source})`;
