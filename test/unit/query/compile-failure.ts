// The QueryError a query must be refused with (a test helper: any other outcome fails the test).
import { compile, QueryError, type CompileOptions } from '../../../lib/query/index';

export function compileFailure(query: string, options: CompileOptions): QueryError {
  try {
    compile(query, options);
  } catch (e) {
    if (e instanceof QueryError) return e;
    throw e;
  }
  throw new Error(`expected the query to fail: ${query}`);
}
