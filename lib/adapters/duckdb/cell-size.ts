// The least number of bytes a row's JSON needs, read from DuckDB's vectors without converting a
// single value: a string's byte length sits in its 16-byte header, a list's length in its entry.
// The engine checks it before converting a row, so a huge cell (a make_list over millions of
// rows is one JSON text) is refused without ever being copied onto the event loop.
import { DuckDBListVector, DuckDBVarCharVector, type DuckDBVector } from '@duckdb/node-api';

/** The parts of @duckdb/node-api's VARCHAR vector this reads; absent in another release: no estimate. */
interface VarCharInternals {
  readonly dataView?: DataView;
  readonly validity?: { itemValid(index: number): boolean };
}

function stringBytes(vector: DuckDBVarCharVector, row: number): number {
  const internals = vector as unknown as VarCharInternals;
  if (!internals.dataView || !internals.validity) return 1;
  if (!internals.validity.itemValid(row)) return 4; // null
  // The text's length: a string's JSON adds quotes; a JSON (dynamic) text is already compact.
  return internals.dataView.getUint32(row * 16, true);
}

/** Least JSON bytes of one cell: strings and lists by their length, anything else one character. */
export function leastCellBytes(vector: DuckDBVector, row: number): number {
  if (vector instanceof DuckDBVarCharVector) return stringBytes(vector, row);
  if (vector instanceof DuckDBListVector) {
    const items = vector.getItemVector(row);
    return items === null ? 4 : 2 * items.itemCount + 1; // `[`, `]` and one character and comma per item
  }
  return 1;
}

/** Least JSON bytes of a row (`[a,b,...]`) and the column of its largest cell. */
export function leastRowBytes(vectors: readonly DuckDBVector[], row: number): { bytes: number; column: number } {
  let bytes = 1 + vectors.length; // brackets and commas
  let column = 0;
  let largest = -1;
  // A plain loop: this runs for every row of every answer.
  for (let c = 0; c < vectors.length; c++) {
    const cell = leastCellBytes(vectors[c]!, row);
    bytes += cell;
    if (cell > largest) {
      largest = cell;
      column = c;
    }
  }
  return { bytes, column };
}
