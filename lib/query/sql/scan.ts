// SQL of the one-step scan (lib/query/analyze-scan.ts): a recursive CTE over the input rows in their
// serialized order, one row per step of the recursion, carrying the state (the last matched row's
// values that the step reads, the declared defaults before any match) and each row's declared
// values. The matched rows are then joined back to the input. DuckDB only (a recursive CTE); the
// generator refuses other engines. Each recursion step joins one row, so the cost grows with the
// input's length times the engine's cost of one step.
import type { ScanIr } from '../ir';
import type { SerialWriter } from './serial-writer';

/** A SELECT of the input's refs, the declared columns and the match id, one row per match. */
export function scanSql(w: SerialWriter, scan: ScanIr): string {
  const q = (n: string): string => w.q(n);
  const [rows, walk, n, matched] = ['_kb', '_kw', '_kn', '_km'].map((p) => q(w.hidden(p))) as [
    string,
    string,
    string,
    string,
  ];
  const cast = (sql: string, type: ScanIr['state'][number]['type']): string => `CAST(${sql} AS ${w.d.sqlType(type)})`;
  const refs = w.refs.map(q);
  const state = scan.state.map((s) => q(s.ref));
  const declared = scan.declared.map((d) => q(d.column.ref));
  const numbered = `SELECT ${refs.join(', ')}, row_number() OVER (ORDER BY ${w.orderBy}) AS ${n} FROM (${w.input}) AS ${q(w.hidden('_t'))}`;
  const seed = [
    `0 AS ${n}`,
    `FALSE AS ${matched}`,
    ...scan.state.map((s, i) => `${cast(w.expr(s.initial), s.type)} AS ${state[i]!}`),
    ...scan.declared.map((d, i) => `${cast('NULL', d.column.type)} AS ${declared[i]!}`),
  ];
  const cond = `coalesce(${w.expr(scan.condition)}, FALSE)`;
  const step = [
    `${rows}.${n}`,
    cond,
    ...scan.state.map((s, i) => `CASE WHEN ${cond} THEN ${cast(w.expr(s.next), s.type)} ELSE ${walk}.${state[i]!} END`),
    ...scan.declared.map((d) => cast(w.expr(d.value), d.column.type)),
  ];
  const columns = [n, matched, ...state, ...declared].join(', ');
  const out = [
    ...refs.map((r) => `${rows}.${r}`),
    ...scan.declared.map((d, i) => `${walk}.${declared[i]!}`),
    ...(scan.matchId ? [`CAST(0 AS BIGINT) AS ${q(scan.matchId.ref)}`] : []),
  ];
  return (
    `WITH RECURSIVE ${rows} AS MATERIALIZED (${numbered}), ` +
    `${walk}(${columns}) AS (SELECT ${seed.join(', ')} UNION ALL ` +
    `SELECT ${step.join(', ')} FROM ${walk} JOIN ${rows} ON ${rows}.${n} = ${walk}.${n} + 1) ` +
    `SELECT ${out.join(', ')} FROM ${rows} JOIN ${walk} ON ${walk}.${n} = ${rows}.${n} WHERE ${walk}.${matched}${scan.output === 'none' ? ' AND FALSE' : ''}`
  );
}
