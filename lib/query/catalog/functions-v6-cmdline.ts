// parse_command_line(command_line, "windows") (parse-command-line-function docs): the arguments as
// Windows' CommandLineToArgvW splits them, as a dynamic array of strings.
// - The first argument (the program) runs to the first space or tab, or, when it starts with a
//   quote, to the next quote; backslashes are plain characters in it.
// - The others are separated by spaces and tabs outside quotes; 2n backslashes before a quote give
//   n backslashes and the quote opens or closes quoting; 2n+1 give n backslashes and a literal
//   quote; backslashes before anything else stay as they are; in a run of quotes every third one
//   after the one that started the run is a literal quote (so `""` inside quotes writes a quote).
// An empty command line gives an empty array. DuckDB: one list_reduce over the characters with the
// parser's state; Timestream: refused.
import { constantOf, type ArgumentCheck, type ScalarFunction, type SqlBuilder } from './types';

/** The state, also the shape of each character's element (list_reduce folds values of one type). */
const state = (ch: string): string =>
  `{'a': CAST([] AS VARCHAR[]), 'c': '', 's': FALSE, 'b': 0, 'q': 0, 'r': FALSE, 'x': ${ch}}`;

/** One character e.x applied to the state p. */
function step(): string {
  const slashes = (n: string): string => `repeat('\\', ${n})`;
  // A run of quotes ends at any other character: an open-and-close pair then leaves quoting.
  const q = `CASE WHEN p.r AND p.q = 2 THEN 0 ELSE p.q END`;
  const next = (a: string, c: string, s: string, b: string, qq: string, r: string): string =>
    `{'a': ${a}, 'c': ${c}, 's': ${s}, 'b': ${b}, 'q': ${qq}, 'r': ${r}, 'x': ''}`;
  const backslash = next('p.a', 'p.c', 'TRUE', 'p.b + 1', q, 'FALSE');
  const quoteInRun = next(
    'p.a',
    `CASE WHEN p.q + 1 = 3 THEN p.c || '"' ELSE p.c END`,
    'TRUE',
    '0',
    `CASE WHEN p.q + 1 = 3 THEN 0 ELSE p.q + 1 END`,
    'TRUE',
  );
  const quote = next(
    'p.a',
    `CASE WHEN p.b % 2 = 0 THEN p.c || ${slashes('p.b // 2')} ELSE p.c || ${slashes('p.b // 2')} || '"' END`,
    'TRUE',
    '0',
    `CASE WHEN p.b % 2 = 0 THEN p.q + 1 ELSE p.q END`,
    'TRUE',
  );
  const split = next(
    `CASE WHEN p.s THEN list_append(p.a, p.c || ${slashes('p.b')}) ELSE p.a END`,
    `''`,
    'FALSE',
    '0',
    '0',
    'FALSE',
  );
  const other = next('p.a', `p.c || ${slashes('p.b')} || e.x`, 'TRUE', '0', q, 'FALSE');
  return `CASE WHEN e.x = '\\' THEN ${backslash} WHEN e.x = '"' AND p.r AND p.b = 0 THEN ${quoteInRun} WHEN e.x = '"' THEN ${quote} WHEN e.x IN (' ', chr(9)) AND ${q} = 0 THEN ${split} ELSE ${other} END`;
}

/** The arguments after the first, parsed from the text `rest` (a lambda parameter). */
function rest(): string {
  const chars = `list_transform(list_filter(string_split(cl_rest, ''), x -> x <> ''), x -> ${state('x')})`;
  const folded = `list_reduce(list_prepend(${state("''")}, ${chars}), (p, e) -> ${step()})`;
  return `list_transform([${folded}], p -> CASE WHEN p.s THEN list_append(p.a, p.c || repeat('\\', p.b)) ELSE p.a END)[1]`;
}

const parse: SqlBuilder = (c) => {
  const text = c.str(0);
  const quoted = `regexp_extract(cl_t, '^"([^"]*)"?([\\s\\S]*)$', ['first', 'rest'])`;
  const plain = `regexp_extract(cl_t, '^([^ \\t]*)([\\s\\S]*)$', ['first', 'rest'])`;
  const parts = `CASE WHEN starts_with(cl_t, '"') THEN ${quoted} ELSE ${plain} END`;
  const args = `list_transform([${parts}], cl_p -> list_prepend(cl_p.first, list_transform([cl_p.rest], cl_rest -> ${rest()})[1]))[1]`;
  return `list_transform([${text}], cl_t -> CASE WHEN cl_t = '' THEN JSON '[]' ELSE to_json(${args}) END)[1]`;
};

const windowsOnly: ArgumentCheck = (args) =>
  String(constantOf(args[1])).toLowerCase() === 'windows' ? undefined : [1, 'the only parser_type is "windows"'];

export const CMDLINE_V6_FUNCTIONS: readonly ScalarFunction[] = [
  {
    name: 'parse_command_line',
    family: 'string',
    summary:
      'The arguments of a command line as Windows (CommandLineToArgvW) splits them, as a dynamic array of strings; parser_type must be "windows".',
    signatures: [
      {
        params: [
          { name: 'command_line', type: 'string' },
          { name: 'parser_type', type: 'string', constant: true },
        ],
        result: 'dynamic',
      },
    ],
    check: windowsOnly,
    duckdb: parse,
    timestream: null,
  },
];
