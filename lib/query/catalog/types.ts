// The shape of a catalog entry: one scalar function or aggregation with its Kusto signatures
// (overloads included) and its SQL per dialect. Adding a function is adding one entry to a family
// file; the analyzer (lib/query/scalars.ts, aggregates.ts) and the SQL writer only read this shape.
import type { IrExpr, KqlType } from '../ir';
import type { SqlDialect } from '../sql/dialect';

/** A parameter's accepted type: a KQL type, or a class of them. */
export type ParamType = KqlType | 'number' | 'integer' | 'any' | 'scalar';

export interface Param {
  readonly name: string;
  readonly type: ParamType;
  readonly optional?: boolean;
  /** The argument must be a literal (a unit name, a format, a regex). */
  readonly constant?: boolean;
}

export interface Signature {
  readonly params: readonly Param[];
  /** The last parameter repeats (strcat_delim, pack_array, min_of ...). */
  readonly variadic?: boolean;
  readonly result: KqlType | ((args: readonly IrExpr[]) => KqlType);
}

/** What a SQL builder gets: the arguments' SQL text and their analyzed form. */
export interface SqlCall {
  readonly a: readonly string[];
  readonly args: readonly IrExpr[];
  readonly type: KqlType;
  readonly d: SqlDialect;
  /** Kusto's tostring() of one argument, for functions that work on text. */
  str(i: number): string;
  /** An argument as JSON text (dynamic elements of pack_array, bag_pack ...). */
  json(i: number): string;
  /** JSON text of any SQL value of a KQL type ('null' for null): elements a function computes itself. */
  jsonOfType(sql: string, type: KqlType): string;
  /** Sets keep their elements in the order they first come (ExpressionWriter.setsInOrder). */
  readonly setsInOrder: boolean;
}

export type SqlBuilder = (c: SqlCall) => string;

export type Family = 'datetime' | 'string' | 'math' | 'array' | 'type' | 'aggregation' | 'series' | 'geo';

/** Checks constant arguments beyond their type; returns [argument index, message] when one is wrong. */
export type ArgumentCheck = (args: readonly IrExpr[]) => readonly [number, string] | undefined;

interface Entry {
  readonly name: string;
  readonly aliases?: readonly string[];
  readonly family: Family;
  /** One line for docs/kql-functions.md. */
  readonly summary: string;
  readonly signatures: readonly Signature[];
  readonly check?: ArgumentCheck;
  readonly duckdb: SqlBuilder;
  /** null: Timestream cannot compute it; a query using it there gets a 400 naming the function and engine. */
  readonly timestream: SqlBuilder | null;
}

export type ScalarFunction = Entry;

export interface AggregateFunction extends Entry {
  /** Kusto's default output column name from the first argument's name (`dcountif_x`, `list_x`); covariance's from both (`covariance_x_y`). */
  readonly defaultName: (argumentName: string, secondArgumentName: string) => string;
}

/** SQL spelling shared by both dialects. */
export const both = (b: SqlBuilder): { duckdb: SqlBuilder; timestream: SqlBuilder } => ({ duckdb: b, timestream: b });

/** A literal argument's value (undefined when not a literal). */
export function constantOf(e: IrExpr | undefined): unknown {
  return e?.kind === 'lit' ? e.value : undefined;
}
