// SQL of scan (lib/query/analyze-scan.ts), DuckDB only (the generator refuses other engines). The
// docs' matching logic (scan operator docs, "Matching logic"): each row is checked against the
// steps from the last to the first; at step k, Check 1 (step k-1's state is not empty and the
// condition holds with that state) promotes step k-1's state to step k and clears step k-1's; else
// Check 2 (step k's state is active, or k is the first step, and the condition holds with step k's
// state) replaces step k's own slot. A first-step match on an empty state starts a sequence with the
// next match id. A row can match several steps, each giving an output row.
//
// The walk is a recursive CTE over the numbered rows, one row per recursion step (joined on the
// row number), carrying the state as one struct; each step's checks are bound once per row with
// `list_transform([v], x -> ...)[1]`. DuckDB has a fixed cost per recursion step, so thousands of
// rows take seconds: the query's time limit bounds it. (Walking chunks of rows with list_reduce
// was tried: DuckDB copies the captured accumulator at each nested lambda, and it was slower.)
// output=last is decided after the walk: a row matched at step k is output when the next change of
// step k's state is its promotion to step k+1, or when there is none.
import type { IrColumn, KqlType, ScanIr } from '../ir';
import { oneStepScanSql } from './scan-one-step';
import { substituteIdents } from './substitute-idents';
import type { SerialWriter } from './serial-writer';

export function scanSql(w: SerialWriter, scan: ScanIr): string {
  if (scan.steps.length === 1 && scan.steps[0]!.output !== 'last') return oneStepScanSql(w, scan);
  const q = (n: string): string => w.q(n);
  const type = (t: KqlType): string => w.d.sqlType(t);
  const [rows, walk, out, last] = ['_kb', '_kw', '_ko', '_kl'].map((p) => q(w.hidden(p))) as [
    string,
    string,
    string,
    string,
  ];
  const n = scan.steps.length;
  const inputs = [...new Map(scan.inputs.map((c): [string, IrColumn] => [c.ref, c])).values()];
  const v = (k: number, j: number, s: number): string => `v${k}_${j}_${s}`;
  // The state: the next match id, then per step k its activity, match id and slots 0..k.
  const stateFields: [string, string, string][] = [['n', 'BIGINT', 'CAST(0 AS BIGINT)']];
  for (let k = 0; k < n; k++) {
    stateFields.push([`a${k}`, 'BOOLEAN', 'FALSE'], [`i${k}`, 'BIGINT', 'CAST(NULL AS BIGINT)']);
    for (let j = 0; j <= k; j++)
      scan.slots.forEach((s, i) => stateFields.push([v(k, j, i), type(s.type), cast(w.expr(s.initial), type(s.type))]));
  }
  // A row's matches: per step, matched, by Check 1, the match id and the declared values.
  const recFields: [string, string][] = [['rn', 'BIGINT']];
  for (let k = 0; k < n; k++) {
    recFields.push([`m${k}`, 'BOOLEAN'], [`p${k}`, 'BOOLEAN'], [`i${k}`, 'BIGINT']);
    scan.declared.forEach((d, x) => recFields.push([`d${k}_${x}`, type(d.type)]));
  }
  const struct = (fields: readonly (readonly [string, string])[]): string =>
    `STRUCT(${fields.map(([f, t]) => `${q(f)} ${t}`).join(', ')})`;
  const stateType = struct(stateFields.map(([f, t]) => [f, t] as const));
  const recType = struct(recFields);
  const accType = `STRUCT("s" ${stateType}, "o" ${recType})`;
  const pack = (fields: readonly (readonly [string, string])[]): string =>
    `{${fields.map(([f, sql]) => `'${f}': ${sql}`).join(', ')}}`;
  const bind = (value: string, param: string, body: string): string =>
    `list_transform([${value}], ${param} -> ${body})[1]`;

  // The next state and the row's matches, from the walk's state and the row: the steps from the
  // last to the first, each bound in turn.
  const A = `${walk}."acc"`;
  const inputMap = new Map(inputs.map((c) => [c.ref, `${rows}.${q(c.ref)}`]));
  const body = (level: number, x: string, done: readonly number[]): string => {
    if (level === n) {
      const rec = pack([
        ['rn', `${rows}."rn"`],
        ...done.flatMap((k) => [
          [`m${k}`, `${x}.o${k}.m`] as const,
          [`p${k}`, `${x}.o${k}.p`] as const,
          [`i${k}`, `${x}.o${k}.i`] as const,
          ...scan.declared.map((_, i) => [`d${k}_${i}`, `${x}.o${k}.d${i}`] as const),
        ]),
      ]);
      return `CAST(${pack([
        ['s', `${x}.s`],
        ['o', rec],
      ])} AS ${accType})`;
    }
    const k = n - 1 - level;
    const step = scan.steps[k]!;
    const st = (f: string): string => `${x}.s.${q(f)}`;
    // An expression of the step with its reads bound to the state Check 1 or Check 2 reads.
    const bound = (sql: string, check: 1 | 2): string => {
      const map = new Map(inputMap);
      for (const r of step.reads) {
        const t = type(scan.slots[r.slot]!.type);
        map.set(
          r.ref,
          check === 1 ? (r.step < k ? st(v(k - 1, r.step, r.slot)) : `CAST(NULL AS ${t})`) : st(v(k, r.step, r.slot)),
        );
      }
      return substituteIdents(sql, map);
    };
    const cond = w.expr(step.condition);
    const [y, z, next] = [`_ky${level}`, `_kz${level}`, `_kx${level + 1}`];
    const c1 = k > 0 ? `(${st(`a${k - 1}`)} AND coalesce(${bound(cond, 1)}, FALSE))` : 'FALSE';
    const c2 = `(${k > 0 ? st(`a${k}`) : 'TRUE'} AND coalesce(${bound(cond, 2)}, FALSE))`;
    const declared = scan.declared.map((d, i) => {
      const a = step.assigned[i];
      const on1 = a ? bound(w.expr(a), 1) : k > 0 ? st(v(k - 1, k - 1, i)) : 'NULL';
      const on2 = a ? bound(w.expr(a), 2) : st(v(k, k, i));
      return [`d${i}`, cast(`CASE WHEN ${y}.c1 THEN ${on1} WHEN ${y}.c2 THEN ${on2} END`, type(d.type))] as const;
    });
    const id =
      k > 0
        ? `CASE WHEN ${y}.c1 THEN ${st(`i${k - 1}`)} WHEN ${y}.c2 THEN ${st(`i${k}`)} END`
        : `CASE WHEN ${y}.c2 THEN CASE WHEN ${st('a0')} THEN ${st('i0')} ELSE ${st('n')} END END`;
    const zFields = pack([
      ['c1', `${y}.c1`],
      ['c2', `${y}.c2`],
      ['m', `(${y}.c1 OR ${y}.c2)`],
      ['id', id],
      ...declared,
    ]);
    // The state after this step: step k's own state set on a match, step k-1's cleared by Check 1.
    const newState = stateFields.map(([f, , initial]): [string, string] => {
      const old = st(f);
      if (f === 'n')
        return [f, k === 0 ? `CASE WHEN ${z}.c2 AND NOT ${st('a0')} THEN ${old} + 1 ELSE ${old} END` : old];
      const [kind, rest] = [f[0], f.slice(1)];
      const [kk, j, s] = rest.split('_').map(Number) as [number, number | undefined, number | undefined];
      if (kk === k) {
        if (kind === 'a') return [f, `(${z}.m OR ${old})`];
        if (kind === 'i') return [f, `CASE WHEN ${z}.m THEN ${z}.id ELSE ${old} END`];
        if (j! < k) return [f, `CASE WHEN ${z}.c1 THEN ${st(v(k - 1, j!, s!))} ELSE ${old} END`];
        const src = scan.slots[s!]!.source;
        const value = 'declared' in src ? `${z}.d${src.declared}` : `${rows}.${q(src.input)}`;
        return [f, `CASE WHEN ${z}.m THEN ${value} ELSE ${old} END`];
      }
      if (kk === k - 1) {
        if (kind === 'a') return [f, `(${old} AND NOT ${z}.c1)`];
        return [f, `CASE WHEN ${z}.c1 THEN ${kind === 'i' ? 'NULL' : initial} ELSE ${old} END`];
      }
      return [f, old];
    });
    const nextX = pack([
      ['s', pack(newState)],
      ...done.map((d) => [`o${d}`, `${x}.o${d}`] as const),
      [
        `o${k}`,
        pack([
          ['m', `${z}.m`],
          ['p', `${z}.c1`],
          ['i', `${z}.id`],
          ...scan.declared.map((_, i) => [`d${i}`, `${z}.d${i}`] as const),
        ]),
      ],
    ]);
    return bind(
      pack([
        ['c1', c1],
        ['c2', c2],
      ]),
      y,
      bind(zFields, z, bind(nextX, next, body(level + 1, next, [...done, k]))),
    );
  };
  const next = bind(`{'s': ${A}.s}`, '_kx0', body(0, '_kx0', []));

  const refs = w.refs.map(q);
  const numbered = `SELECT ${refs.join(', ')}, row_number() OVER (ORDER BY ${w.orderBy}) AS "rn" FROM (${w.input}) AS ${q(w.hidden('_t'))}`;
  const seed = `CAST(${pack([
    ['s', pack(stateFields.map(([f, , i]) => [f, i] as const))],
    ['o', 'NULL'],
  ])} AS ${accType})`;
  // output=last: the next change of step k's state is a promotion (1), a new match at k (0), or none.
  const lasts = scan.steps.map((s, k) =>
    s.output !== 'last'
      ? undefined
      : `first_value(CASE ${k + 1 < n ? `WHEN "u"."m${k + 1}" AND "u"."p${k + 1}" THEN 1 ` : ''}WHEN "u"."m${k}" THEN 0 END IGNORE NULLS) OVER (ORDER BY "u"."rn" ROWS BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING) AS "l${k}"`,
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
    `WITH RECURSIVE ${rows} AS MATERIALIZED (${numbered}), ` +
    `${walk}("rn", "acc") AS (SELECT 0, ${seed} UNION ALL ` +
    `SELECT ${rows}."rn", ${next} FROM ${walk} JOIN ${rows} ON ${rows}."rn" = ${walk}."rn" + 1), ` +
    `${out} AS (SELECT ${walk}."acc".o AS "u" FROM ${walk} WHERE ${walk}."rn" > 0), ` +
    `${last} AS (SELECT "u"${lasts
      .filter((l) => l)
      .map((l) => `, ${l!}`)
      .join('')} FROM ${out}) ` +
    result
  );
}

const cast = (sql: string, type: string): string => `CAST(${sql} AS ${type})`;
