// union isfuzzy=true at the compile() level (union operator docs, isfuzzy): only legs naming a table
// or view that does not exist are left out; any other failure of a leg is still reported at its
// position ("Once the set of source tables is determined, possible additional query failures won't
// be suppressed"), on both engines. The page's examples are conformance cases (op-v6-union-isfuzzy*).
import { describe, expect, it } from 'vitest';
import { compile, type CompileOptions } from '../../../lib/query/index';
import { baseOptions, expectRefusedAt } from './compile-failure';

const options = (dialect: CompileOptions['dialect']): CompileOptions => ({ ...baseOptions, dialect });
const dialects = ['duckdb', 'timestream'] as const;

describe('union isfuzzy=true', () => {
  it('leaves out a missing table and keeps the others, on both engines', () => {
    for (const dialect of dialects) {
      // Act
      const { columns } = compile(
        'union isfuzzy=true States, NoSuchTable, (Events | project Timestamp)',
        options(dialect),
      );
      // Assess
      expect(columns.map((c) => c.name)).toContain('Value');
      expect(columns.map((c) => c.name)).toContain('Timestamp');
    }
  });

  it.each([
    [
      'union isfuzzy=true States, (Events | where Nope > 1)',
      { code: 'QUERY_SEMANTIC', message: "unknown column 'Nope'", position: '1:44' },
    ],
    [
      'union isfuzzy=false States, NoSuchTable',
      { code: 'QUERY_SEMANTIC', message: "unknown table 'NoSuchTable'", position: '1:29' },
    ],
    [
      'union isfuzzy=true Missing1, Missing2',
      { code: 'QUERY_SEMANTIC', message: 'found none of its tables', position: '1:1' },
    ],
  ])('still refuses %s at its position', (query, refusal) => {
    for (const dialect of dialects) expectRefusedAt(query, options(dialect), refusal);
  });
});
