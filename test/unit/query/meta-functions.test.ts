// current_principal() and current_database() in compile(): the request's identity as string
// literals, fixed for the query; refused without one, and with arguments.
import { describe, expect, it } from 'vitest';
import { compile, type CompileOptions, type QueryError } from '../../../lib/query';
import { compileFailure } from './compile-failure';

const options: CompileOptions = {
  dialect: 'duckdb',
  scope: {
    customerId: 'c',
    plantIds: null,
    startTime: '2026-01-01T00:00:00.000Z',
    endTime: '2026-01-02T00:00:00.000Z',
  },
  now: new Date('2026-01-01T12:00:00.000Z'),
  rowLimit: 1000,
  identity: { principal: "app=o'brien;c", database: 'c' },
};

const failure = (query: string, o: CompileOptions = options): QueryError => compileFailure(query, o);

describe('metadata functions', () => {
  it('are the identity of the request, as escaped string literals', () => {
    // Act
    const compiled = compile('print p = current_principal(), d = current_database()', options);
    // Assess
    expect(compiled.sql).toContain(`'app=o''brien;c' AS "_c1", 'c' AS "_c2"`);
    expect(compiled.columns).toEqual([
      { name: 'p', type: 'string' },
      { name: 'd', type: 'string' },
    ]);
  });

  it('are refused at the name without an identity, and with an argument', () => {
    // Prepare
    const { identity: _identity, ...anonymous } = options;
    // Act
    const none = failure('print current_principal()', anonymous);
    const args = failure('print current_principal(1)');
    // Assess
    expect(none.code).toBe('QUERY_UNSUPPORTED');
    expect(none.message).toBe("1:7: current_principal() needs the request's caller, which this compile was not given");
    expect(args.code).toBe('QUERY_SEMANTIC');
    expect(args.message).toContain('current_principal() takes no arguments');
  });

  it.each([
    ['ingestion_time', 'IngestionTimestamp of States and Events'],
    ['current_cluster_endpoint', 'the host a client reached is not known'],
    ['current_principal_details', 'Entra ID details'],
    ['current_principal_is_member_of', 'no groups'],
  ])('refuses %s with its reason', (name, reason) => {
    // Act
    const error = failure(`print ${name}()`);
    // Assess
    expect(error.code).toBe('QUERY_UNSUPPORTED');
    expect(error.message).toMatch(new RegExp(`^1:7: the function '${name}' is not supported: .*${reason}`));
  });
});
