// SQL of scan (lib/query/analyze-scan.ts), DuckDB only (the generator refuses other engines). One
// row's step (the docs' matching logic) is sql/scan-step.ts; this file walks the rows with it.
//
// The walk is sequential (each row's state depends on the previous one), and DuckDB has a fixed
// cost per recursion step of a recursive CTE (about 0.1 ms: 200,000 rows a step each would take
// 20 s even without work), and each step that joins its next input row reads all of them again
// (quadratic). list_reduce over a list is far cheaper per element, and cheaper still when it runs
// over many lists at once (DuckDB evaluates the lambda over the lists' k-th elements as a vector).
// So the rows are cut into chunks of CHUNK rows, the chunks into at most about BLOCKS blocks:
//  1. a recursive CTE walks the blocks, one per step (the interrupt of the query's time limit is
//     checked between steps); a step's list_reduce over the block's chunks, each folded by an inner
//     list_reduce over its rows, carries only the state (constant size) and keeps the state at
//     each chunk's start;
//  2. then every chunk is walked again from its start state, all chunks at once, the accumulator
//     collecting the rows' records (a chunk costs CHUNK² small copies, hence a small CHUNK).
// The cost is linear in the rows (and at most BLOCKS copies of the input for the recursion's joins).
// list_reduce wants the accumulator of the elements' type, so rows and states share one struct.
// output=last is decided after the walk: a row matched at step k is output when the next change of
// step k's state is its promotion to step k+1, a promotion into step k (Check 1 of the docs' matching
// logic clears step k: a new series begins), or when there is none.
import type { KqlType, ScanIr } from '../ir';
import { hoistSubqueries } from './scan-hoist';
import { scanStepSql, uniqueInputs } from './scan-step';
import type { SerialWriter } from './serial-writer';

const CHUNK = 64;
// The columns the steps' lambdas can see are named _x...: DuckDB binds `s.g` inside a function's own
// lambda `s -> s.g` (parse_ipv6's) to a column named s of the FROM rather than to the parameter.
const BLOCKS = 64;

export function scanSql(w: SerialWriter, written: ScanIr): string {
  const { scan, hoisted } = hoistSubqueries(w, written);
  const q = (n: string): string => w.q(n);
  const type = (t: KqlType): string => w.d.sqlType(t);
  const [rows, chunks, blocks, size, walk, starts, out, last] = [
    '_kb',
    '_kc',
    '_kk',
    '_kn',
    '_kw',
    '_ks',
    '_ko',
    '_kl',
  ].map((p) => q(w.hidden(p))) as [string, string, string, string, string, string, string, string];
  const n = scan.steps.length;
  const inputs = uniqueInputs(scan);
  const { stateType, seed, recType, step } = scanStepSql(w, scan);
  const rowType = `STRUCT(${inputs.map((c) => `${q(c.ref)} ${type(c.type)}`).join(', ') || '"_" BOOLEAN'})`;
  const elemType = `STRUCT("rn" BIGINT, "r" ${rowType}, "s" ${stateType}, "o" ${recType}[])`;
  const blockType = `STRUCT("l" ${elemType}[], "s" ${stateType}, "st" ${stateType}[])`;
  const rowOf = (e: string) => (ref: string) => `${e}."r".${q(ref)}`;
  // Typed NULLs and fields already of their types: a CAST of the struct inside a lambda is set up
  // again per element and cost more than the step itself.
  const elem = (s: string, o: string): string =>
    `{'rn': CAST(NULL AS BIGINT), 'r': CAST(NULL AS ${rowType}), 's': ${s}, 'o': ${o}}`;

  const refs = w.refs.map(q);
  const computed = hoisted.map((c) => `${c.sql} AS ${q(c.ref)}, `).join('');
  const numbered = `SELECT ${refs.join(', ')}, ${computed}row_number() OVER (ORDER BY ${w.orderBy}) AS "rn" FROM (${w.input}) AS ${q(w.hidden('_t'))}`;
  const rowStruct = `{${inputs.map((c) => `${q(c.ref)}: CAST(${q(c.ref)} AS ${type(c.type)})`).join(', ') || `'_': NULL`}}`;
  const chunked = `SELECT ("rn" - 1) // ${CHUNK} AS "_xc", list(CAST({'rn': "rn", 'r': ${rowStruct}, 's': NULL, 'o': NULL} AS ${elemType}) ORDER BY "rn") AS "_xl" FROM ${rows} GROUP BY 1`;
  // Chunks per block: enough that there are at most about BLOCKS blocks, and at least 32.
  const perBlock = `SELECT CAST(greatest(32, ceil(count(*) / ${BLOCKS})) AS BIGINT) AS "n" FROM ${chunks}`;
  const blocked = `SELECT ${chunks}."_xc" // ${size}."n" AS "_xk", list(CAST({'l': ${chunks}."_xl", 's': NULL, 'st': NULL} AS ${blockType}) ORDER BY ${chunks}."_xc") AS "_xl" FROM ${chunks}, ${size} GROUP BY 1`;
  // 1. The state at each chunk's start, a block per recursion step.
  const fold = `list_reduce(_kq."l", (_ka, _ke) -> ${elem(step('_ka."s"', rowOf('_ke'), '_ke."rn"').state, `CAST(NULL AS ${recType}[])`)}, ${elem('_kp."s"', `CAST(NULL AS ${recType}[])`)})."s"`;
  const blockStep = `list_reduce(${blocks}."_xl", (_kp, _kq) -> CAST({'l': NULL, 's': ${fold}, 'st': list_append(_kp."st", _kp."s")} AS ${blockType}), CAST({'l': NULL, 's': ${walk}."_xz"."s", 'st': []} AS ${blockType}))`;
  const walked =
    `SELECT CAST(-1 AS BIGINT), CAST({'l': NULL, 's': ${seed}, 'st': NULL} AS ${blockType}) UNION ALL ` +
    `SELECT ${blocks}."_xk", ${blockStep} FROM ${walk} JOIN ${blocks} ON ${blocks}."_xk" = ${walk}."_xk" + 1`;
  const started = `SELECT "_xk" * ${size}."n" + "_xi" AS "_xc", "_xs" FROM (SELECT "_xk", unnest("_xz"."st") AS "_xs", unnest(range(len("_xz"."st"))) AS "_xi" FROM ${walk} WHERE "_xk" >= 0), ${size}`;
  // 2. Every chunk from its start state, all at once, collecting the rows' records.
  const walked1 = step('_ka."s"', rowOf('_ke'), '_ke."rn"');
  const record = elem(walked1.state, `list_append(_ka."o", ${walked1.record})`);
  const outputs = `SELECT unnest(list_reduce(${chunks}."_xl", (_ka, _ke) -> ${record}, ${elem(`${starts}."_xs"`, `CAST([] AS ${recType}[])`)})."o") AS "u" FROM ${chunks} JOIN ${starts} ON ${starts}."_xc" = ${chunks}."_xc"`;

  // output=last: the next change of step k's state is a promotion out of k or into k (1: the series
  // ends), a repeated match at k (0), or none.
  const lasts = scan.steps.map((s, k) =>
    s.output !== 'last'
      ? undefined
      : `first_value(CASE ${k + 1 < n ? `WHEN "u"."m${k + 1}" AND "u"."p${k + 1}" THEN 1 ` : ''}WHEN "u"."m${k}" AND "u"."p${k}" THEN 1 WHEN "u"."m${k}" THEN 0 END IGNORE NULLS) OVER (${scan.resetOn ? 'PARTITION BY "u"."g" ' : ''}ORDER BY "u"."rn" ROWS BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING) AS "l${k}"`,
  );
  const selects = scan.steps
    .map((s, k) => ({ s, k }))
    .filter(({ s }) => s.output !== 'none')
    .map(({ s, k }) => {
      const cols = [
        ...refs.map((r) => `${rows}.${r}`),
        ...scan.declared.map((d, i) => `${last}."u"."d${k}_${i}" AS ${q(d.ref)}`),
        ...(scan.matchId ? [`${last}."u"."i${k}" AS ${q(scan.matchId.ref)}`] : []),
      ];
      const keep = s.output === 'last' ? ` AND coalesce(${last}."l${k}", 1) = 1` : '';
      return `SELECT ${cols.join(', ')} FROM ${last} JOIN ${rows} ON ${rows}."rn" = ${last}."u"."rn" WHERE ${last}."u"."m${k}"${keep}`;
    });
  const result = selects.length
    ? selects.join(' UNION ALL ')
    : `SELECT ${[...refs.map((r) => `${rows}.${r}`), ...scan.declared.map((d) => `CAST(NULL AS ${type(d.type)}) AS ${q(d.ref)}`), ...(scan.matchId ? [`CAST(NULL AS BIGINT) AS ${q(scan.matchId.ref)}`] : [])].join(', ')} FROM ${rows} WHERE FALSE`;
  return (
    `WITH RECURSIVE ${rows} AS MATERIALIZED (${numbered}), ${chunks} AS MATERIALIZED (${chunked}), ` +
    `${size} AS MATERIALIZED (${perBlock}), ${blocks} AS MATERIALIZED (${blocked}), ` +
    `${walk}("_xk", "_xz") AS (${walked}), ${starts} AS (${started}), ${out} AS (${outputs}), ` +
    `${last} AS (SELECT "u"${lasts
      .filter((l) => l)
      .map((l) => `, ${l!}`)
      .join('')} FROM ${out}) ` +
    result
  );
}
