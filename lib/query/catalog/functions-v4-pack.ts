// pack_all and bag_pack_columns: a property bag of the input row's columns. Their arguments are
// filled in by lib/query/pack-columns.ts from the operator's input (the user writes at most the
// flag or the column names): [ignore_null_empty, key1, value1, ...] and [key1, value1, ...].
import { both, type ScalarFunction, type SqlCall } from './types';

/** The bag's JSON text from the key/value argument pairs starting at `first`; with `skipEmpty`, pairs whose value is null or "" are left out. */
function bag(c: SqlCall, first: number, skipEmpty: boolean): string {
  const pairs: string[] = [];
  for (let i = first; i + 1 < c.a.length; i += 2) {
    const pair = `${c.json(i)} || ':' || ${c.json(i + 1)}`;
    pairs.push(skipEmpty ? `CASE WHEN ${c.json(i + 1)} NOT IN ('null', '""') THEN ${pair} END` : pair);
  }
  // concat_ws skips null arguments in both engines: the pairs left out leave no stray comma.
  const text = pairs.length ? `'{' || concat_ws(',', ${pairs.join(', ')}) || '}'` : `'{}'`;
  return c.d.name === 'duckdb' ? `CAST(${text} AS JSON)` : text;
}

export const PACK_FUNCTIONS: readonly ScalarFunction[] = [
  {
    name: 'pack_all',
    family: 'array',
    summary: "A property bag of every column of the input row; with true, columns that are null or '' are left out.",
    signatures: [
      { params: [{ name: 'ignore_null_empty', type: 'bool', optional: true, constant: true }], result: 'dynamic' },
    ],
    ...both((c) => bag(c, 1, c.args[0]?.kind === 'lit' && c.args[0].value === true)),
  },
  {
    name: 'bag_pack_columns',
    family: 'array',
    summary: 'A property bag of the named columns, each under its column name.',
    signatures: [{ params: [{ name: 'column', type: 'scalar' }], variadic: true, result: 'dynamic' }],
    ...both((c) => bag(c, 0, false)),
  },
];
