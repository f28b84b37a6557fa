// compile() for the in-process runners, with the key discovery the query service does for
// evaluate bag_unpack / pivot without an output schema (lib/query-api/discovery.ts): each discovery
// SQL runs on the fixture database and the query is compiled again with the keys found.
import type { DuckDBConnection } from '@duckdb/node-api';
import { compilePlan, convertRows, type CompiledQuery, type CompileOptions, type DiscoveredKey } from '../../lib/query';
import { runSql } from '../golden/fixture-db';

/** @throws QueryError as compile() does, and for too many keys. */
export async function compileWithKeys(
  db: DuckDBConnection,
  text: string,
  options: CompileOptions,
): Promise<CompiledQuery> {
  const found: (readonly DiscoveredKey[])[] = [];
  let plan = compilePlan(text, options, found);
  while (plan.kind === 'discover') {
    const rows = convertRows(
      await runSql(db, plan.sql),
      plan.columns.map((c) => c.type),
    );
    found.push(plan.read(rows as unknown[][]));
    plan = compilePlan(text, options, found);
  }
  return plan.query;
}
