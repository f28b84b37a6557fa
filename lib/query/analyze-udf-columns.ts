// A tabular argument checked against its parameter's declared columns (let statement docs, "If
// columns are specified, then the input tabular argument must contain these columns"): each
// declared column must be there under its exact name with exactly its type. Kusto.Language refuses
// int for long, long for real and string for dynamic alike ("The tabular value does not have the
// required columns."); other columns may come along. `(T:(*))` declares none and is not checked.
// Throws QueryError QUERY_SEMANTIC at the argument.
import type { Operator } from './ast';
import { clip, type ErrorFactory } from './errors';
import type { IrColumn } from './ir';
import { typeNamed } from './types';

export function requireColumns(
  errors: ErrorFactory,
  columns: readonly IrColumn[],
  op: Operator & { kind: 'requireColumns' },
): void {
  for (const wanted of op.columns) {
    const type = typeNamed(wanted.type, true) ?? wanted.type;
    const got = columns.find((c) => c.name === wanted.name);
    if (got?.type === type) continue;
    const has = got ? `has '${clip(wanted.name)}' as ${got.type}` : `has no column '${clip(wanted.name)}'`;
    throw errors.semantic(
      `the table passed to '${clip(op.function)}' ${has}; its parameter ${clip(op.parameter)} declares ${clip(wanted.name)}:${type}`,
      op.span,
    );
  }
}
