// Differences found by probe 8 (summarize/aggregation values and the operator leftovers of probe 7),
// each settled by Kusto.Language (Microsoft's parser and semantic model) where no page prints it:
// a name written twice in one extend is an error (KS171), the older `render kind=... title=...`
// form is read, and find reads database('<this database>').T like union does.
import { describe, expect, it } from 'vitest';
import { compile, type CompileOptions } from '../../../lib/query/index';
import { GOLDEN_OPTIONS } from '../../golden/fixture-db';
import { expectRefusedAt } from './compile-failure';

const duckdb: CompileOptions = { ...GOLDEN_OPTIONS, dialect: 'duckdb' };

describe('probe 8: extend with a name written twice', () => {
  it('refuses the second x of one extend at its name', () => {
    expectRefusedAt('datatable(a:long)[1] | extend x = a, x = a + 1', duckdb, {
      code: 'QUERY_SEMANTIC',
      message: "duplicate column name 'x'",
      position: '1:38',
    });
  });

  it('refuses an input column written twice, and serialize likewise', () => {
    expectRefusedAt('datatable(a:long)[1] | extend a = 1, a = 2', duckdb, {
      code: 'QUERY_SEMANTIC',
      message: "duplicate column name 'a'",
      position: '1:38',
    });
    expectRefusedAt('datatable(a:long)[1] | serialize x = 1, x = 2', duckdb, {
      code: 'QUERY_SEMANTIC',
      message: "duplicate column name 'x'",
      position: '1:41',
    });
  });

  it('still replaces an input column once, and names differing in case are two columns', () => {
    // Act
    const replaced = compile('datatable(a:long)[1] | extend a = a + 1, b = a', duckdb);
    const cased = compile('datatable(a:long)[1] | extend X = 1, x = 2', duckdb);
    // Assess
    expect(replaced.columns.map((c) => c.name)).toEqual(['a', 'b']);
    expect(cased.columns.map((c) => c.name)).toEqual(['a', 'X', 'x']);
  });
});

describe('probe 8: render properties outside with (...)', () => {
  it('reads space-separated properties before with (...) into the render hint', () => {
    // Act
    const legacy = compile("range x from 1 to 3 step 1 | render areachart kind=stacked title='t'", duckdb);
    const both = compile("range x from 1 to 3 step 1 | render areachart kind=stacked with (title='a')", duckdb);
    // Assess
    expect(legacy.renderHint).toEqual({ visualization: 'areachart', properties: { kind: 'stacked', title: "'t'" } });
    expect(both.renderHint).toEqual({ visualization: 'areachart', properties: { kind: 'stacked', title: "'a'" } });
  });

  it('refuses a property after with (...) at the property', () => {
    expectRefusedAt("range x from 1 to 3 step 1 | render areachart with (title='a') kind=stacked", duckdb, {
      code: 'QUERY_SYNTAX',
      message: 'render properties go inside with (...)',
      position: '1:64',
    });
  });
});

describe('probe 8: find in (database(...).Table)', () => {
  it('reads this database by name as the bare table', () => {
    // Act
    const named = compile("find withsource=S in (database('cust-a').States) where Uid != '' | count", duckdb);
    const bare = compile("find withsource=S in (States) where Uid != '' | count", duckdb);
    // Assess
    expect(named.sql).toBe(bare.sql);
  });

  it('refuses cross-database scopes at the scope', () => {
    for (const scope of ["database('*').*", "database('cust-a').*", "cluster('c').database('cust-a').States"])
      expectRefusedAt(`find in (${scope}) where true`, duckdb, {
        code: 'QUERY_UNSUPPORTED',
        message: 'is not supported: only this database',
        position: '1:10',
      });
    expectRefusedAt("find in (database('other').States) where true", duckdb, {
      code: 'QUERY_SEMANTIC',
      message: "unknown database 'other'",
      position: '1:19',
    });
  });
});
