// SQL of row_window_session (lib/query/analyze-window-session.ts). A session's start depends on the
// previous session's start, so no single window function computes it. The rows are numbered in
// their serialized order; the "hard" breaks (first row, nulls, a neighbor gap, restart) are flags
// known per row, and they cut the rows into groups. Inside a group only the distance from the
// session's first value starts a session: a recursive CTE walks all groups at once, one session per
// step (the next start is the group's first later row at least MaxDistanceFromFirst past the
// current start). Each row then takes the value of the latest start at or before it.
// DuckDB only (aggregates in a recursive term); the generator refuses other engines.
import type { SessionIr } from '../ir';
import type { SerialWriter } from './serial-writer';

/** A SELECT of the input's refs plus the session start under `session.column.ref`. */
export function sessionSql(w: SerialWriter, session: SessionIr): string {
  const { d, q } = { d: w.d, q: (n: string): string => w.q(n) };
  const [b, h, walk, k, n, v, pv, r, g, s, start] = [
    '_sb',
    '_sh',
    '_sw',
    '_sk',
    '_n',
    '_v',
    '_pv',
    '_r',
    '_g',
    '_st',
    '_ss',
  ].map((p) => q(w.hidden(p))) as [
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  const refs = w.refs.map((x) => q(x)).join(', ');
  const value = d.epochMicros(w.expr(session.value));
  const fromFirst = w.expr(session.maxFromFirst);
  const neighbors = w.expr(session.maxBetweenNeighbors);
  const restart = session.restart ? ` OR ${w.expr(session.restart)}` : '';
  const order = `ORDER BY ${n} ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW`;
  const hard = `${n} = 1 OR ${v} IS NULL OR ${pv} IS NULL OR ${v} - ${pv} >= ${neighbors}${restart}`;
  const numbered = `SELECT ${refs}, row_number() OVER (ORDER BY ${w.orderBy}) AS ${n}, ${value} AS ${v} FROM (${w.input}) AS ${q(w.hidden('_t'))}`;
  const withPrev = `SELECT *, lag(${v}) OVER (ORDER BY ${n}) AS ${pv} FROM (${numbered}) AS ${q(w.hidden('_t'))}`;
  const grouped = `SELECT *, sum(CASE WHEN ${hard} THEN 1 ELSE 0 END) OVER (${order}) AS ${g} FROM (${withPrev}) AS ${q(w.hidden('_t'))}`;
  // The recursive step: per group still walking, the first later row far enough from the current start.
  const steps =
    `SELECT ${g}, min(${n}) AS ${n}, arg_min(${v}, ${n}) AS ${s} FROM ${h} GROUP BY ${g}` +
    ` UNION ALL SELECT ${walk}.${g}, min(${h}.${n}), arg_min(${h}.${v}, ${h}.${n}) FROM ${walk} JOIN ${h}` +
    ` ON ${h}.${g} = ${walk}.${g} AND ${h}.${n} > ${walk}.${n} AND ${h}.${v} - ${walk}.${s} >= ${fromFirst} GROUP BY ${walk}.${g}`;
  // Session number: the count of starts so far; its first row's value is the session's start.
  const marked = `SELECT ${h}.*, ${walk}.${n} IS NOT NULL AS ${r}, count(${walk}.${n}) OVER (ORDER BY ${h}.${n} ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS ${k} FROM ${h} LEFT JOIN ${walk} ON ${walk}.${n} = ${h}.${n}`;
  const started = `SELECT *, max(CASE WHEN ${r} THEN ${v} END) OVER (PARTITION BY ${k}) AS ${start} FROM (${marked}) AS ${q(w.hidden('_t'))}`;
  return (
    `WITH RECURSIVE ${h} AS MATERIALIZED (${grouped}), ${walk}(${g}, ${n}, ${s}) AS (${steps}) ` +
    `SELECT ${refs}, ${d.fromEpochMicros(start)} AS ${q(session.column.ref)} FROM (${started}) AS ${b}`
  );
}
