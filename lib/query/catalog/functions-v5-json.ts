// JSON-path functions Kusto users write: extract_json/extractjson (extract-json-function docs),
// bag_remove_keys (bag-remove-keys-function docs) and bag_set_key (bag-set-key-function docs);
// also treepath (treepath-function docs).
// Their paths must be constants (bag_remove_keys also takes per-row first-level keys): they are parsed here (jsonpath docs: `$.a.b`, `$['a']`, `$[0]`,
// or a bare key for the bags' functions) and written as fixed SQL paths. The bags' functions edit
// with JSON merge patches (RFC 7386), which DuckDB has and Timestream has not (refused there).
import type { IrExpr, PathSegment } from '../ir';
import { constantOf, type ArgumentCheck, type ScalarFunction, type SqlCall } from './types';

/** A constant JSONPath as segments, or a message saying what is wrong with it. */
export function parseJsonPath(text: string, bareKey: boolean): PathSegment[] | string {
  if (!text.startsWith('$')) return bareKey && text !== '' ? [text] : `'${text}' is not a JSONPath (it starts with $)`;
  const path: PathSegment[] = [];
  let i = 1;
  while (i < text.length) {
    if (text[i] === '.') {
      let j = i + 1;
      while (j < text.length && text[j] !== '.' && text[j] !== '[') j++;
      if (j === i + 1) return `an empty name at offset ${i} of the JSONPath '${text}'`;
      path.push(text.slice(i + 1, j));
      i = j;
    } else if (text[i] === '[') {
      const close = text.indexOf(']', i);
      if (close < 0) return `an unclosed [ in the JSONPath '${text}'`;
      const inner = text.slice(i + 1, close).trim();
      const quoted = /^'([^']*)'$|^"([^"]*)"$/.exec(inner);
      if (quoted) path.push(quoted[1] ?? quoted[2]!);
      else if (/^[0-9]+$/.test(inner)) path.push(Number(inner));
      else return `'[${inner}]' in the JSONPath '${text}' is neither a quoted name nor an index`;
      i = close + 1;
    } else return `unexpected '${text[i]}' at offset ${i} of the JSONPath '${text}'`;
  }
  return path;
}

const pathOf = (arg: IrExpr | undefined, bareKey: boolean): PathSegment[] | string =>
  parseJsonPath(String(constantOf(arg) ?? ''), bareKey);

/** Checks the constant path argument at `index`; `keysOnly` refuses array indexes and the root. */
function pathCheck(index: number, bareKey: boolean, keysOnly: boolean): ArgumentCheck {
  return (args) => {
    const arg = args[index]!;
    const texts: unknown[] = arg.type === 'dynamic' ? parsedArray(arg) : [constantOf(arg)];
    for (const t of texts) {
      if (typeof t !== 'string') {
        if (arg.type === 'dynamic') continue; // the bag_remove_keys docs: elements that are no string are ignored
        return [index, 'the path must be a constant string'];
      }
      const p = parseJsonPath(t, bareKey);
      if (typeof p === 'string') return [index, p];
      if (keysOnly && (p.length === 0 || p.some((s) => typeof s === 'number')))
        return [index, `'${t}' must name a key: the root and array indexes are not supported here`];
    }
    return undefined;
  };
}

function parsedArray(arg: IrExpr): unknown[] {
  const v: unknown = JSON.parse(String(constantOf(arg) ?? 'null'));
  return Array.isArray(v) ? v : [];
}

/** A JSON object text nesting `leaf` under the keys of `path`, as SQL (the leaf is SQL JSON text). */
function nested(path: readonly PathSegment[], leaf: string, c: SqlCall): string {
  return path.reduceRight<string>(
    (inner, key) => `'{' || ${c.jsonOfType(c.d.string(String(key)), 'string')} || ':' || ${inner} || '}'`,
    leaf,
  );
}

/**
 * bag_remove_keys: one merge patch of nulls per key, deepest keys first, each applied only where
 * its parent is a bag (a patch would otherwise make the missing or scalar parent an empty bag).
 */
function removeKeys(c: SqlCall): string {
  if (c.args[1]!.kind !== 'lit') return removeRowKeys(c);
  const paths = parsedArray(c.args[1]!)
    .filter((t): t is string => typeof t === 'string')
    .map((t) => parseJsonPath(t, true) as PathSegment[])
    .sort((x, y) => y.length - x.length);
  const bag = c.a[0]!;
  let out = bag;
  for (const path of paths) {
    const parent = path.length > 1 ? c.d.dynGet(bag, path.slice(0, -1)) : bag;
    const patch = `CAST(${nested(path, `'null'`, c)} AS JSON)`;
    out = `json_merge_patch(${out}, CASE WHEN json_type(${parent}) = 'OBJECT' THEN ${patch} ELSE JSON '{}' END)`;
  }
  return `CASE WHEN json_type(${bag}) = 'OBJECT' THEN ${out} END`;
}

/**
 * bag_remove_keys with keys computed per row (the mv-apply page's `make_set(values[0])`): the bag
 * rebuilt from its keys that are not listed, in their order. A listed `$.name` or `$['name']` names
 * the first-level key `name`; deeper JSONPaths are not followed (they match no first-level key);
 * elements that are no string are ignored, as for constant keys.
 */
function removeRowKeys(c: SqlCall): string {
  const [bag, keys] = c.a as [string, string];
  const names = `list_transform(list_filter(json_extract(${keys}, '$[*]'), e -> json_type(e) = 'VARCHAR'), e -> regexp_replace(json_extract_string(e, '$'), '^\\$(?:\\.([^.\\[]+)|\\[[''"](.*)[''"]\\])$', '\\1\\2'))`;
  const listed = `CASE WHEN json_type(${keys}) = 'ARRAY' THEN ${names} ELSE CAST([] AS VARCHAR[]) END`;
  const kept = `list_filter(json_keys(${bag}), x -> NOT list_contains(${listed}, x))`;
  const pairs = `list_transform(${kept}, x -> ${jsonPair('x', `CAST(${c.d.dynKey(bag, 'x')} AS VARCHAR)`)})`;
  return `CASE WHEN json_type(${bag}) = 'OBJECT' THEN CAST('{' || array_to_string(${pairs}, ',') || '}' AS JSON) END`;
}

/** `"key":value` of a SQL text key and the SQL JSON text of its value. */
const jsonPair = (k: string, v: string): string => `CAST(to_json(${k}) AS VARCHAR) || ':' || ${v}`;

/**
 * The JSON text of bag b with the key path set to the JSON text leaf: every key keeps its place, a
 * new key goes last, a missing or non-bag level on the way becomes a bag. A merge patch would move
 * a replaced key to the end, where the docs print it in place. The SQL holds the child twice per
 * level, and paths are a few levels deep.
 */
function setIn(b: string, path: readonly PathSegment[], leaf: string, c: SqlCall): string {
  const [head, ...rest] = path;
  const key = c.d.string(String(head));
  const child = rest.length === 0 ? leaf : setIn(c.d.dynKey(b, key), rest, leaf, c);
  const keys = `CASE WHEN json_type(${b}) = 'OBJECT' THEN json_keys(${b}) ELSE CAST([] AS VARCHAR[]) END`;
  const kept = `list_transform(${keys}, x -> ${jsonPair('x', `CASE WHEN x = ${key} THEN ${child} ELSE CAST(${c.d.dynKey(b, 'x')} AS VARCHAR) END`)})`;
  const added = `CASE WHEN list_contains(${keys}, ${key}) THEN CAST([] AS VARCHAR[]) ELSE [${jsonPair(key, child)}] END`;
  return `'{' || array_to_string(list_concat(${kept}, ${added}), ',') || '}'`;
}

/** bag_set_key: null (not a bag) for anything but a bag. */
function setKey(c: SqlCall): string {
  const path = pathOf(c.args[1], true) as PathSegment[];
  const leaf = `coalesce(${c.json(2)}, 'null')`;
  return `CASE WHEN json_type(${c.a[0]}) = 'OBJECT' THEN CAST(${setIn(c.a[0]!, path, leaf, c)} AS JSON) END`;
}

/** extract_json's text: the element's text ("" when missing), a string element without its quotes. */
function extractJson(c: SqlCall): string {
  const path = pathOf(c.args[0], false) as PathSegment[];
  const doc = c.d.parseJson(c.a[1]!);
  return path.length === 0 ? c.d.dynToString(doc) : c.d.dynToString(c.d.dynGet(doc, path));
}

/**
 * treepath: the path of every node below the root, each array index written [0] (the page prints
 * one ['prop1'][0] for a four-element array), distinct, in the order the nodes first appear. Paths
 * are built down json_tree()'s parent links by a recursive query (no SQL recursion over JSON).
 */
function treePath(c: SqlCall): string {
  const nodes = `SELECT id, parent, key, type FROM json_tree(${c.a[0]!})`;
  const paths =
    `SELECT id, type, '' AS path FROM n WHERE parent IS NULL UNION ALL ` +
    `SELECT n.id, n.type, p.path || CASE WHEN p.type = 'ARRAY' THEN '[0]' ELSE '[''' || n.key || ''']' END FROM n JOIN p ON n.parent = p.id`;
  const list = `SELECT to_json(list(path ORDER BY first)) FROM (SELECT path, min(id) AS first FROM p WHERE path <> '' GROUP BY path)`;
  return `CASE WHEN json_type(${c.a[0]!}) IN ('OBJECT', 'ARRAY') THEN coalesce((WITH RECURSIVE n AS (${nodes}), p(id, type, path) AS (${paths}) ${list}), JSON '[]') END`;
}

const str = (name: string, constant = false) => ({ name, type: 'string' as const, ...(constant ? { constant } : {}) });

export const JSON_V5_FUNCTIONS: readonly ScalarFunction[] = [
  {
    name: 'treepath',
    family: 'array',
    summary:
      "The distinct paths of the nodes below the root of a bag or array (['key'], array elements as [0]), in the order they first appear; null for a scalar.",
    signatures: [{ params: [{ name: 'object', type: 'dynamic' }], result: 'dynamic' }],
    duckdb: treePath,
    timestream: null,
  },
  {
    name: 'extract_json',
    aliases: ['extractjson'],
    family: 'string',
    summary:
      'The element of a JSON text at a constant JSONPath, as text ("" when missing); with typeof(T) as a third argument, converted to T.',
    signatures: [{ params: [str('jsonPath', true), str('dataSource')], result: 'string' }],
    check: pathCheck(0, false, false),
    duckdb: extractJson,
    timestream: extractJson,
  },
  {
    name: 'bag_remove_keys',
    family: 'array',
    summary:
      'The property bag without the keys of an array (names, or JSONPaths to nested keys when the array is a constant); null for anything but a bag.',
    signatures: [
      {
        params: [
          { name: 'bag', type: 'dynamic' },
          { name: 'keys', type: 'dynamic' },
        ],
        result: 'dynamic',
      },
    ],
    check: pathCheck(1, true, true),
    duckdb: removeKeys,
    timestream: null,
  },
  {
    name: 'bag_set_key',
    family: 'array',
    summary:
      'The property bag with a key (a name or a JSONPath to a nested key, constant) set to a value, replacing any old one; null for anything but a bag.',
    signatures: [
      {
        params: [{ name: 'bag', type: 'dynamic' }, str('key', true), { name: 'value', type: 'any' }],
        result: 'dynamic',
      },
    ],
    check: pathCheck(1, true, true),
    duckdb: setKey,
    timestream: null,
  },
];
