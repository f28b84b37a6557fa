// Rebinding of column references in SQL the expression writer produced, for the scan writers, which
// evaluate a step's expressions against state columns or struct fields instead of the input's columns.
/**
 * `sql` with each double-quoted identifier found in `map` replaced by its value. Single-quoted
 * literals are skipped (the dialect writes every string that way, doubling a quote inside), so a
 * string value can never be rewritten.
 */
export function substituteIdents(sql: string, map: ReadonlyMap<string, string>): string {
  let out = '';
  let i = 0;
  while (i < sql.length) {
    const c = sql[i]!;
    if (c === "'" || c === '"') {
      let j = i + 1;
      for (;;) {
        const e = sql.indexOf(c, j);
        if (e < 0) {
          j = sql.length;
          break;
        }
        if (sql[e + 1] === c) j = e + 2;
        else {
          j = e + 1;
          break;
        }
      }
      const token = sql.slice(i, j);
      out += c === '"' ? (map.get(token.slice(1, -1).replace(/""/g, '"')) ?? token) : token;
      i = j;
    } else {
      const next = Math.min(...[sql.indexOf("'", i), sql.indexOf('"', i)].map((p) => (p < 0 ? sql.length : p)));
      out += sql.slice(i, next);
      i = next;
    }
  }
  return out;
}
