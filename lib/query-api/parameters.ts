// The values of a query's `declare query_parameters(...)` as a request sends them: the native body's
// `parameters` and a Kusto body's `properties.Parameters`, both an object of name: value, each value
// the text of a literal of its declared type (a number or a bool is taken as its text). The compiler
// binds them (lib/query/statements-declare.ts). Read with Object.entries and Object.fromEntries, so
// every name, `__proto__` included, stays an own property and a value of its own.

/** Bounds of the object (the compiler's statement limit is 100 too). */
export const MAX_PARAMETERS = 100;
const MAX_PARAMETER_NAME = 256;
const MAX_PARAMETER_TEXT = 65_536;

/** The parameters' texts by name, or what is wrong (`name` when one parameter is). */
export type ReadParameters =
  | { readonly ok: true; readonly texts: Record<string, string> }
  | { readonly ok: false; readonly name?: string; readonly message: string };

export function readParameters(value: unknown): ReadParameters {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { ok: false, message: 'parameters must be an object of name: value' };
  const entries = Object.entries(value);
  if (entries.length > MAX_PARAMETERS) return { ok: false, message: `at most ${MAX_PARAMETERS} parameters` };
  const texts: [string, string][] = [];
  for (const [name, v] of entries) {
    if (name.length === 0 || name.length > MAX_PARAMETER_NAME)
      return { ok: false, name, message: `a parameter name has 1 to ${MAX_PARAMETER_NAME} characters` };
    if (typeof v === 'string' && v.length > MAX_PARAMETER_TEXT)
      return { ok: false, name, message: `a parameter value has at most ${MAX_PARAMETER_TEXT} characters` };
    if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean')
      return { ok: false, name, message: 'a parameter value is a string (the text of a literal), a number or a bool' };
    texts.push([name, String(v)]);
  }
  return { ok: true, texts: Object.fromEntries(texts) };
}
