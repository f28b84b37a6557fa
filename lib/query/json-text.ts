// The text of a dynamic(...) literal as stored: the JSON with the whitespace outside strings
// removed and everything else as written. JSON.stringify(JSON.parse(...)) would turn 111.0 into 111,
// and Kusto keeps a real apart from a long inside dynamic values (series_fill_linear rounds only
// arrays of integers; https://learn.microsoft.com/en-us/kusto/query/series-fill-linear-function).

/** @throws SyntaxError when `raw` is not JSON. */
export function minifiedJson(raw: string): string {
  JSON.parse(raw);
  let out = '';
  let inString = false;
  for (let i = 0; i < raw.length; i++) {
    const ch = raw[i]!;
    if (inString) {
      out += ch;
      if (ch === '\\') out += raw[++i] ?? '';
      else if (ch === '"') inString = false;
    } else if (ch === '"') {
      inString = true;
      out += ch;
    } else if (ch !== ' ' && ch !== '\t' && ch !== '\n' && ch !== '\r') out += ch;
  }
  return out;
}
