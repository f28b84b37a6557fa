// SQL of a scan with one step and output=all or none (lib/query/sql/scan.ts writes the general
// case). With one step the matching logic reduces to: a row whose condition holds with the state
// (the last matched row's slot values, the defaults before any match) is output and becomes the
// state; the match id is always 0 (the first step's state stays active, so no new sequence
// starts). Written with flat state columns instead of the general case's struct bound per check,
// which DuckDB evaluates several times faster per recursion step.
import type { ScanIr } from '../ir';
import { substituteIdents } from './substitute-idents';
import type { SerialWriter } from './serial-writer';

export function oneStepScanSql(w: SerialWriter, scan: ScanIr): string {
  const q = (n: string): string => w.q(n);
  const step = scan.steps[0]!;
  const [rows, walk] = ['_kb', '_kw'].map((p) => q(w.hidden(p))) as [string, string];
  const cast = (sql: string, type: ScanIr['slots'][number]['type']): string => `CAST(${sql} AS ${w.d.sqlType(type)})`;
  const slot = (s: number): string => q(`v${s}`);
  const reads = new Map(step.reads.map((r) => [r.ref, `${walk}.${slot(r.slot)}`]));
  const bound = (sql: string): string => substituteIdents(sql, reads);
  const cond = `coalesce(${bound(w.expr(step.condition))}, FALSE)`;
  const out = scan.declared.map((d, i) =>
    cast(step.assigned[i] ? bound(w.expr(step.assigned[i])) : `${walk}.${slot(i)}`, d.type),
  );
  const next = scan.slots.map((s, i) => {
    const value = 'declared' in s.source ? out[s.source.declared]! : `${rows}.${q(s.source.input)}`;
    return `CASE WHEN ${cond} THEN ${cast(value, s.type)} ELSE ${walk}.${slot(i)} END`;
  });
  const declared = scan.declared.map((d) => q(d.ref));
  const refs = w.refs.map(q);
  const numbered = `SELECT ${refs.join(', ')}, row_number() OVER (ORDER BY ${w.orderBy}) AS "rn" FROM (${w.input}) AS ${q(w.hidden('_t'))}`;
  const columns = ['"rn"', '"m"', ...scan.slots.map((_, i) => slot(i)), ...declared].join(', ');
  const seed = [
    '0',
    'FALSE',
    ...scan.slots.map((s) => cast(w.expr(s.initial), s.type)),
    ...scan.declared.map((d) => cast('NULL', d.type)),
  ];
  const recurse = [`${rows}."rn"`, cond, ...next, ...out];
  const select = [
    ...refs.map((r) => `${rows}.${r}`),
    ...declared.map((d) => `${walk}.${d}`),
    ...(scan.matchId ? [`CAST(0 AS BIGINT) AS ${q(scan.matchId.ref)}`] : []),
  ];
  return (
    `WITH RECURSIVE ${rows} AS MATERIALIZED (${numbered}), ` +
    `${walk}(${columns}) AS (SELECT ${seed.join(', ')} UNION ALL ` +
    `SELECT ${recurse.join(', ')} FROM ${walk} JOIN ${rows} ON ${rows}."rn" = ${walk}."rn" + 1) ` +
    `SELECT ${select.join(', ')} FROM ${rows} JOIN ${walk} ON ${walk}."rn" = ${rows}."rn" WHERE ${walk}."m"${step.output === 'none' ? ' AND FALSE' : ''}`
  );
}
