// extract_all() (https://learn.microsoft.com/en-us/kusto/query/extract-all-function): every match of
// a constant regex; with one chosen group an array of strings, with several an array of arrays, one
// per match, holding the groups chosen by captureGroups (numbers from 1, or group names) or all of
// the regex's groups; null when nothing matches. Each group is one regexp_extract_all over the
// text, the lists then read side by side.
import type { IrExpr } from '../ir';
import { canMatchEmpty, captureGroupNames, engineRegex, re2Problem } from '../regex-groups';
import { keptMatches, searchedFromStart } from '../regex-matches';
import { DUCK_LISTS, TRINO_LISTS } from './positions';
import { constantOf, type ArgumentCheck, type ScalarFunction, type SqlBuilder } from './types';

/** The page: "A regular expression containing between one and 16 capture groups." */
const MAX_GROUPS = 16;

/** The chosen groups' numbers, or a message saying why the captureGroups constant is not valid. */
function chosenGroups(args: readonly IrExpr[]): number[] | string {
  const names = captureGroupNames(String(constantOf(args[0])));
  if (args.length === 2) return names.map((_, i) => i + 1);
  let chosen: unknown;
  try {
    chosen = JSON.parse(String(constantOf(args[1])));
  } catch {
    chosen = undefined;
  }
  if (!Array.isArray(chosen) || chosen.length === 0) return 'captureGroups must be a non-empty array';
  const numbers: number[] = [];
  for (const g of chosen) {
    const n = typeof g === 'string' ? names.indexOf(g) + 1 : g;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > names.length)
      return `captureGroups holds ${JSON.stringify(g)}: not a group number from 1 to ${names.length} or a group name`;
    numbers.push(n);
  }
  return numbers;
}

const check: ArgumentCheck = (args) => {
  const problem = re2Problem(String(constantOf(args[0])));
  if (problem !== undefined) return [0, problem];
  const count = captureGroupNames(String(constantOf(args[0]))).length;
  if (count < 1 || count > MAX_GROUPS) return [0, `the regex must have 1 to ${MAX_GROUPS} capture groups`];
  const chosen = chosenGroups(args);
  return typeof chosen === 'string' ? [1, chosen] : undefined;
};

/**
 * The SQL: one engine list per group number, read side by side. For a regex that can match the
 * empty string, the whole matches come first and choose the matches kept (regex-matches.ts).
 */
const build =
  (engine: 'duckdb' | 'timestream'): SqlBuilder =>
  ({ args, a, d }) => {
    const groups = chosenGroups(args) as number[];
    const text = a[a.length - 1]!;
    const kustoRegex = String(constantOf(args[0]));
    const empty = canMatchEmpty(kustoRegex);
    const spelled = engineRegex(kustoRegex, d.name);
    const regex = d.string(empty ? searchedFromStart(spelled) : spelled);
    const lists = [...(empty ? [0] : []), ...groups].map((g) => `regexp_extract_all(${text}, ${regex}, ${g})`);
    const l = engine === 'duckdb' ? DUCK_LISTS : TRINO_LISTS;
    const first = empty ? 1 : 0; // the lists' index before the chosen groups'
    const cell = (k: number): string => l.at(l.at('_xg', String(first + k + 1)), empty ? '_xi + 1' : '_xi');
    const row =
      groups.length === 1
        ? cell(0)
        : `${engine === 'duckdb' ? '[' : 'ARRAY['}${groups.map((_, k) => cell(k)).join(', ')}]`;
    const indexes = empty
      ? keptMatches(l, l.at('_xg', '1'))
      : engine === 'duckdb'
        ? 'range(1, len(_xg[1]) + 1)'
        : 'sequence(1, cardinality(_xg[1]))';
    if (engine === 'duckdb') {
      if (lists.length === 1) return `CASE WHEN len(${lists[0]}) > 0 THEN to_json(${lists[0]}) END`;
      return `list_transform([[${lists.join(', ')}]], _xg -> list_transform([${indexes}], _xk -> CASE WHEN len(_xk) > 0 THEN to_json(list_transform(_xk, _xi -> ${row})) END)[1])[1]`;
    }
    if (lists.length === 1)
      return `CASE WHEN cardinality(${lists[0]}) > 0 THEN json_format(CAST(${lists[0]} AS JSON)) END`;
    return `element_at(transform(ARRAY[ARRAY[${lists.join(', ')}]], _xg -> element_at(transform(ARRAY[${indexes}], _xk -> CASE WHEN cardinality(_xk) > 0 THEN json_format(CAST(transform(_xk, _xi -> ${row}) AS JSON)) END), 1)), 1)`;
  };

export const EXTRACT_ALL: ScalarFunction = {
  name: 'extract_all',
  aliases: ['extractall'],
  family: 'string',
  summary:
    'Every match of a constant regex (1 to 16 capture groups): an array of strings for one group, else an array per match of the groups chosen by a constant captureGroups array (numbers or names; all by default); null when none.',
  signatures: [
    {
      params: [
        { name: 'regex', type: 'string', constant: true },
        { name: 'captureGroups', type: 'dynamic', constant: true },
        { name: 'source', type: 'string' },
      ],
      result: 'dynamic',
    },
    {
      params: [
        { name: 'regex', type: 'string', constant: true },
        { name: 'source', type: 'string' },
      ],
      result: 'dynamic',
    },
  ],
  check,
  duckdb: build('duckdb'),
  timestream: build('timestream'),
};
