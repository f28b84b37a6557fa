// One row's step of scan (lib/query/analyze-scan.ts), as a SQL expression of the state before the
// row and the row: the docs' matching logic (scan operator docs, "Matching logic"). Each row is
// checked against the steps from the last to the first; at step k, Check 1 (step k-1's state is
// not empty and the condition holds with that state) promotes step k-1's state to step k and clears
// step k-1's; else Check 2 (step k's state is active, or k is the first step, and the condition
// holds with step k's state) replaces step k's own slot. A first-step match on an empty state
// starts a sequence with the next match id. A row can match several steps, each giving an output.
// The walk (sql/scan.ts) uses these expressions inside list_reduce lambdas.
import type { IrColumn, KqlType, ScanIr } from '../ir';
import { substituteIdents } from './substitute-idents';
import type { SerialWriter } from './serial-writer';

export interface ScanStepSql {
  /** The state's struct type: the next match id, then per step k its activity, id and slots 0..k. */
  readonly stateType: string;
  /** The empty state (every step cleared, the declared defaults). */
  readonly seed: string;
  /** A row's record's struct type: its number, then per step matched, by Check 1, match id, declared values. */
  readonly recType: string;
  /** The next state and the row's record, from the state `state`, the row's columns `row(ref)` and number `rn`. */
  step(state: string, row: (ref: string) => string, rn: string): { readonly state: string; readonly record: string };
}

export function scanStepSql(w: SerialWriter, scan: ScanIr): ScanStepSql {
  const q = (n: string): string => w.q(n);
  const type = (t: KqlType): string => w.d.sqlType(t);
  const n = scan.steps.length;
  const v = (k: number, j: number, s: number): string => `v${k}_${j}_${s}`;
  const stateFields: [string, string, string][] = [['n', 'BIGINT', 'CAST(0 AS BIGINT)']];
  for (let k = 0; k < n; k++) {
    stateFields.push([`a${k}`, 'BOOLEAN', 'FALSE'], [`i${k}`, 'BIGINT', 'CAST(NULL AS BIGINT)']);
    for (let j = 0; j <= k; j++)
      scan.slots.forEach((s, i) => stateFields.push([v(k, j, i), type(s.type), cast(w.expr(s.initial), type(s.type))]));
  }
  // Inside partition: the previous row's key ("pk"; "ps" once a row was seen), to start each key's rows empty.
  const reset = scan.resetOn;
  if (reset)
    stateFields.push(['pk', type(reset.type), `CAST(NULL AS ${type(reset.type)})`], ['ps', 'BOOLEAN', 'FALSE']);
  const recFields: [string, string][] = [['rn', 'BIGINT']];
  if (reset) recFields.push(['g', type(reset.type)]);
  for (let k = 0; k < n; k++) {
    recFields.push([`m${k}`, 'BOOLEAN'], [`p${k}`, 'BOOLEAN'], [`i${k}`, 'BIGINT']);
    scan.declared.forEach((d, x) => recFields.push([`d${k}_${x}`, type(d.type)]));
  }
  const struct = (fields: readonly (readonly [string, string])[]): string =>
    `STRUCT(${fields.map(([f, t]) => `${q(f)} ${t}`).join(', ')})`;
  const stateType = struct(stateFields.map(([f, t]) => [f, t] as const));
  const recType = struct(recFields);
  const pack = (fields: readonly (readonly [string, string])[]): string =>
    `{${fields.map(([f, sql]) => `'${f}': ${sql}`).join(', ')}}`;
  const seed = `CAST(${pack(stateFields.map(([f, , i]) => [f, i] as const))} AS ${stateType})`;

  const step = (state: string, row: (ref: string) => string, rn: string): { state: string; record: string } => {
    const inputMap = new Map(scan.inputs.map((c) => [c.ref, row(c.ref)]));
    // Written out flat, without binding values in nested lambdas: inside list_reduce DuckDB sets up
    // each nested lambda again per element, which cost 4 ms a row with one step's four binds (flat:
    // tens of microseconds). The steps from the last to the first, each reading the state so far.
    let cur = new Map(stateFields.map(([f]) => [f, `${state}.${q(f)}`]));
    if (reset) {
      const fresh = `(NOT ${state}."ps" OR ${state}."pk" IS DISTINCT FROM ${row(reset.ref)})`;
      cur = new Map(
        stateFields.map(([f, , initial]) => [f, `CASE WHEN ${fresh} THEN ${initial} ELSE ${state}.${q(f)} END`]),
      );
    }
    const records = new Map<number, { m: string; p: string; i: string; d: string[] }>();
    for (let k = n - 1; k >= 0; k--) {
      const st = (f: string): string => cur.get(f)!;
      // An expression of the step with its reads bound to the state Check 1 or Check 2 reads.
      const bound = (sql: string, check: 1 | 2): string => {
        const map = new Map(inputMap);
        for (const r of scan.steps[k]!.reads) {
          const slot = scan.slots[r.slot]!;
          // Check 1 clears step k before its assignments: its own record reads the declared default
          // (null for an input column), as a first step's empty state does (the page's cumulative sum).
          const cleared = cast(w.expr(slot.initial), type(slot.type));
          map.set(
            r.ref,
            check === 1 ? (r.step < k ? st(v(k - 1, r.step, r.slot)) : cleared) : st(v(k, r.step, r.slot)),
          );
        }
        return substituteIdents(sql, map);
      };
      const cond = w.expr(scan.steps[k]!.condition);
      const c1 = k > 0 ? `(${st(`a${k - 1}`)} AND coalesce(${bound(cond, 1)}, FALSE))` : 'FALSE';
      const c2 = `(${k > 0 ? st(`a${k}`) : 'TRUE'} AND coalesce(${bound(cond, 2)}, FALSE))`;
      const m = `(${c1} OR ${c2})`;
      const d = scan.declared.map((dc, i) => {
        const a = scan.steps[k]!.assigned[i];
        const on1 = a ? bound(w.expr(a), 1) : k > 0 ? st(v(k - 1, k - 1, i)) : 'NULL';
        const on2 = a ? bound(w.expr(a), 2) : st(v(k, k, i));
        return cast(
          k > 0 ? `CASE WHEN ${c1} THEN ${on1} WHEN ${c2} THEN ${on2} END` : `CASE WHEN ${c2} THEN ${on2} END`,
          type(dc.type),
        );
      });
      const id =
        k > 0
          ? `CASE WHEN ${c1} THEN ${st(`i${k - 1}`)} WHEN ${c2} THEN ${st(`i${k}`)} END`
          : `CASE WHEN ${c2} THEN CASE WHEN ${st('a0')} THEN ${st('i0')} ELSE ${st('n')} END END`;
      records.set(k, { m, p: c1, i: id, d });
      // The state after this step: step k's own state set on a match, step k-1's cleared by Check 1.
      const next = new Map<string, string>();
      for (const [f, , initial] of stateFields) {
        const old = st(f);
        if (f === 'pk' || f === 'ps') {
          next.set(f, f === 'pk' ? row(reset!.ref) : 'TRUE');
          continue;
        }
        if (f === 'n') {
          next.set(f, k === 0 ? `CASE WHEN ${c2} AND NOT ${st('a0')} THEN ${old} + 1 ELSE ${old} END` : old);
          continue;
        }
        const [kind, rest] = [f[0], f.slice(1)];
        const [kk, j, s] = rest.split('_').map(Number) as [number, number | undefined, number | undefined];
        if (kk === k) {
          if (kind === 'a') next.set(f, `(${m} OR ${old})`);
          else if (kind === 'i') next.set(f, `CASE WHEN ${m} THEN ${id} ELSE ${old} END`);
          else if (j! < k) next.set(f, `CASE WHEN ${c1} THEN ${st(v(k - 1, j!, s!))} ELSE ${old} END`);
          else {
            const src = scan.slots[s!]!.source;
            const value = 'declared' in src ? d[src.declared]! : row(src.input);
            next.set(f, `CASE WHEN ${m} THEN ${value} ELSE ${old} END`);
          }
        } else if (kk === k - 1) {
          if (kind === 'a') next.set(f, `(${old} AND NOT ${c1})`);
          else next.set(f, `CASE WHEN ${c1} THEN ${kind === 'i' ? 'NULL' : initial} ELSE ${old} END`);
        } else next.set(f, old);
      }
      cur = next;
    }
    const record = pack([
      ['rn', rn],
      ...(reset ? [['g', row(reset.ref)] as const] : []),
      ...[...records.entries()]
        .reverse()
        .flatMap(([k, r]) => [
          [`m${k}`, r.m] as const,
          [`p${k}`, r.p] as const,
          [`i${k}`, r.i] as const,
          ...r.d.map((x, i) => [`d${k}_${i}`, x] as const),
        ]),
    ]);
    // Each field cast to its type, so that the struct is of the state's type without a CAST of it.
    const fieldType = new Map(stateFields.map(([f, t]) => [f, t]));
    return { state: pack(stateFields.map(([f]) => [f, cast(cur.get(f)!, fieldType.get(f)!)] as const)), record };
  };
  return { stateType, seed, recType, step };
}

const cast = (sql: string, type: string): string => `CAST(${sql} AS ${type})`;

/** The input columns a row carries into the walk. */
export const uniqueInputs = (scan: ScanIr): IrColumn[] => [
  ...new Map(scan.inputs.map((c): [string, IrColumn] => [c.ref, c])).values(),
];
