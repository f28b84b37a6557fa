// punycode_to_string (punycode-to-string-function docs): RFC 3492's decoding, in DuckDB SQL as one
// list_reduce over the encoded characters. The text after the last '-' holds the variable-length
// integers; each adds to the insertion state i, and when one ends (a digit below its threshold t)
// the code point n + i div (length + 1) is inserted at i mod (length + 1) and the bias adapts.
// A text that is not valid Punycode (a character that is no base-36 digit, a non-ASCII character,
// a number left unfinished) gives the empty string, as the page says ("an empty result"). The
// encoding direction (punycode_from_string) is not written: refused. Timestream: refused.
import type { ScalarFunction } from './types';

const BASE = 36;
const DAMP = 700;
const SKEW = 38;
const TMIN = 1;
const TMAX = 26;
/** How often adapt()'s loop can run for a delta below 2^31: 455 · 35^6 exceeds it. */
const ADAPT_ROUNDS = 7;

/** The digit value of one character: a-z 0..25, A-Z 0..25, 0-9 26..35; -1 for any other. */
const digit = (ch: string): string =>
  `CASE WHEN ${ch} BETWEEN 'a' AND 'z' THEN ord(${ch}) - 97 WHEN ${ch} BETWEEN 'A' AND 'Z' THEN ord(${ch}) - 65 WHEN ${ch} BETWEEN '0' AND '9' THEN ord(${ch}) - 22 ELSE -1 END`;

/** RFC 3492's adapt(delta, numpoints, firsttime), its loop unrolled as a fold over a fixed range. */
function adapt(delta: string, points: string, first: string): string {
  const scaled = `(CASE WHEN ${first} THEN (${delta}) // ${DAMP} ELSE (${delta}) // 2 END)`;
  const start = `list_transform([${scaled}], pd -> {'d': pd + pd // (${points}), 'k': CAST(0 AS BIGINT)})[1]`;
  const rounds = `list_transform(range(${ADAPT_ROUNDS}), x -> {'d': CAST(0 AS BIGINT), 'k': CAST(0 AS BIGINT)})`;
  const limit = ((BASE - TMIN) * TMAX) / 2;
  const loop = `list_reduce(list_prepend(${start}, ${rounds}), (pa, px) -> CASE WHEN pa.d > ${limit} THEN {'d': pa.d // ${BASE - TMIN}, 'k': pa.k + ${BASE}} ELSE pa END)`;
  return `list_transform([${loop}], pr -> pr.k + (${BASE - TMIN + 1} * pr.d) // (pr.d + ${SKEW}))[1]`;
}

/** The decoder's state; also each character's element, since list_reduce folds values of one type. */
const element = (ch: string, out = 'CAST([] AS BIGINT[])'): string =>
  `{'o': ${out}, 'n': CAST(128 AS BIGINT), 'i': CAST(0 AS BIGINT), 'b': CAST(72 AS BIGINT), 'oi': CAST(0 AS BIGINT), 'w': CAST(1 AS BIGINT), 'k': CAST(${BASE} AS BIGINT), 'f': TRUE, 'bad': FALSE, 'c': ${ch}}`;

/** One encoded character e.c applied to the state p. */
function step(): string {
  const d = `(${digit('e.c')})`;
  const oi = `CASE WHEN p.f THEN p.i ELSE p.oi END`;
  const w = `CASE WHEN p.f THEN 1 ELSE p.w END`;
  const k = `CASE WHEN p.f THEN ${BASE} ELSE p.k END`;
  const i = `(p.i + ${d} * ${w})`;
  const t = `(CASE WHEN ${k} <= p.b THEN ${TMIN} WHEN ${k} >= p.b + ${TMAX} THEN ${TMAX} ELSE ${k} - p.b END)`;
  const len = `(len(p.o) + 1)`;
  const n = `(p.n + ${i} // ${len})`;
  const at = `(${i} % ${len})`;
  const inserted = `list_concat(list_concat(p.o[1:${at}], [${n}]), p.o[${at} + 1:])`;
  const done = `{'o': ${inserted}, 'n': ${n}, 'i': ${at} + 1, 'b': ${adapt(`${i} - ${oi}`, len, `${oi} = 0`)}, 'oi': ${oi}, 'w': ${w}, 'k': ${k}, 'f': TRUE, 'bad': p.bad, 'c': ''}`;
  const more = `{'o': p.o, 'n': p.n, 'i': ${i}, 'b': p.b, 'oi': ${oi}, 'w': ${w} * (${BASE} - ${t}), 'k': ${k} + ${BASE}, 'f': FALSE, 'bad': p.bad, 'c': ''}`;
  const bad = `{'o': p.o, 'n': p.n, 'i': p.i, 'b': p.b, 'oi': p.oi, 'w': p.w, 'k': p.k, 'f': p.f, 'bad': TRUE, 'c': ''}`;
  return `CASE WHEN p.bad OR ${d} < 0 OR ${i} > 2147483647 THEN ${bad} WHEN ${d} < ${t} THEN ${done} ELSE ${more} END`;
}

/** RFC 3492's decoding of the SQL text `input`; '' when it is not valid Punycode. */
function decodeText(input: string): string {
  // Basic code points before the last '-', the encoded digits after it (all of it when there is none).
  const dash = `(len(pc_t) - strpos(reverse(pc_t), '-') + 1)`;
  const basic = `CASE WHEN strpos(pc_t, '-') > 0 THEN left(pc_t, ${dash} - 1) ELSE '' END`;
  const digits = `CASE WHEN strpos(pc_t, '-') > 0 THEN substr(pc_t, ${dash} + 1) ELSE pc_t END`;
  const basicPoints = `list_transform(list_filter(string_split(${basic}, ''), x -> x <> ''), x -> CAST(ord(x) AS BIGINT))`;
  const chars = `list_transform(list_filter(string_split(${digits}, ''), x -> x <> ''), x -> ${element('x')})`;
  const folded = `list_reduce(list_prepend(${element("''", basicPoints)}, ${chars}), (p, e) -> ${step()})`;
  const text = `list_transform([${folded}], s -> CASE WHEN s.bad OR NOT s.f THEN '' ELSE array_to_string(list_transform(s.o, x -> chr(CAST(x AS INTEGER))), '') END)[1]`;
  return `list_transform([${input}], pc_t -> CASE WHEN regexp_matches(pc_t, '[^\\x00-\\x7F]') THEN '' ELSE ${text} END)[1]`;
}

/** A digit value 0..35 as its character: a-z, then 0-9. */
const digitChar = (d: string): string =>
  `chr(CAST(CASE WHEN (${d}) < 26 THEN (${d}) + 97 ELSE (${d}) + 22 END AS INTEGER))`;

/** The variable-length integer q under bias as digits (at most 12 for q below 2^31). */
function integer(q: string, bias: string): string {
  const start = `{'q': CAST(${q} AS BIGINT), 'k': CAST(${BASE} AS BIGINT), 's': '', 'done': FALSE}`;
  const rounds = `list_transform(range(12), x -> {'q': CAST(0 AS BIGINT), 'k': CAST(0 AS BIGINT), 's': '', 'done': FALSE})`;
  const t = `(CASE WHEN pv.k <= ${bias} THEN ${TMIN} WHEN pv.k >= ${bias} + ${TMAX} THEN ${TMAX} ELSE pv.k - ${bias} END)`;
  const last = `{'q': pv.q, 'k': pv.k, 's': pv.s || ${digitChar('pv.q')}, 'done': TRUE}`;
  const more = `{'q': (pv.q - ${t}) // (${BASE} - ${t}), 'k': pv.k + ${BASE}, 's': pv.s || ${digitChar(`${t} + (pv.q - ${t}) % (${BASE} - ${t})`)}, 'done': FALSE}`;
  return `list_reduce(list_prepend(${start}, ${rounds}), (pv, px) -> CASE WHEN pv.done THEN pv WHEN pv.q < ${t} THEN ${last} ELSE ${more} END).s`;
}

/** The encoder's state, also the shape of the values it folds over (v: a code point). */
const encState = (v: string): string =>
  `{'out': '', 'delta': CAST(0 AS BIGINT), 'n': CAST(128 AS BIGINT), 'bias': CAST(72 AS BIGINT), 'h': CAST(0 AS BIGINT), 'b': CAST(0 AS BIGINT), 'v': CAST(${v} AS BIGINT)}`;

/**
 * RFC 3492's encoding of the code points pe_c (a lambda parameter): the basic ones, a '-' when there
 * are any, then for each other code point m in ascending order one pass over all code points that
 * writes the insertion deltas of m's occurrences.
 */
function encodePoints(text: string): string {
  const basic = `list_filter(pe_c, x -> x < 128)`;
  const start = `{'out': array_to_string(list_transform(${basic}, x -> chr(CAST(x AS INTEGER))), '') || CASE WHEN len(${basic}) > 0 THEN '-' ELSE '' END, 'delta': CAST(0 AS BIGINT), 'n': CAST(128 AS BIGINT), 'bias': CAST(72 AS BIGINT), 'h': CAST(len(${basic}) AS BIGINT), 'b': CAST(len(${basic}) AS BIGINT), 'v': CAST(0 AS BIGINT)}`;
  const others = `list_transform(list_sort(list_distinct(list_filter(pe_c, x -> x >= 128))), x -> ${encState('x')})`;
  // Per code point c of the pass: below n counts; equal to n writes the delta and adapts.
  const d1 = `(ps.delta + CASE WHEN pc.v < ps.n THEN 1 ELSE 0 END)`;
  const write = `{'out': ps.out || ${integer(d1, 'ps.bias')}, 'delta': CAST(0 AS BIGINT), 'n': ps.n, 'bias': ${adapt(d1, 'ps.h + 1', 'ps.h = ps.b')}, 'h': ps.h + 1, 'b': ps.b, 'v': CAST(0 AS BIGINT)}`;
  const count = `{'out': ps.out, 'delta': ${d1}, 'n': ps.n, 'bias': ps.bias, 'h': ps.h, 'b': ps.b, 'v': CAST(0 AS BIGINT)}`;
  const pass = `list_reduce(list_prepend(pm, list_transform(pe_c, x -> ${encState('x')})), (ps, pc) -> CASE WHEN pc.v = ps.n THEN ${write} ELSE ${count} END)`;
  const toM = `{'out': pa.out, 'delta': pa.delta + (pe.v - pa.n) * (pa.h + 1), 'n': pe.v, 'bias': pa.bias, 'h': pa.h, 'b': pa.b, 'v': CAST(0 AS BIGINT)}`;
  const afterPass = `list_transform([${pass}], pz -> {'out': pz.out, 'delta': pz.delta + 1, 'n': pz.n + 1, 'bias': pz.bias, 'h': pz.h, 'b': pz.b, 'v': CAST(0 AS BIGINT)})[1]`;
  const fold = `list_reduce(list_prepend(${start}, ${others}), (pa, pe) -> list_transform([${toM}], pm -> ${afterPass})[1])`;
  return `list_transform([list_transform(string_split(${text}, ''), x -> CAST(unicode(x) AS BIGINT))], pe_c -> ${fold}.out)[1]`;
}

/**
 * The most characters a punycode function takes. Its fold costs milliseconds per character and runs
 * on one value, which DuckDB cannot interrupt: 512 characters took 5.4 s and 2,048 more than the
 * 20 s time limit (the 504 came, the engine went on). A DNS label has at most 63 characters and a
 * domain 253, so the bound refuses no real name. Exported for the tests and the docs.
 */
export const PUNYCODE_MAX_CHARACTERS = 256;

/**
 * body, or a run-time error (a 400 QUERY_DATA_ERROR with this message) when text is longer than
 * PUNYCODE_MAX_CHARACTERS.
 */
const bounded = (name: string, text: string, body: string): string =>
  `CASE WHEN length(${text}) > ${PUNYCODE_MAX_CHARACTERS} THEN error('${name}(): the text has more than ${PUNYCODE_MAX_CHARACTERS} characters, the most this function takes (its cost per character is high and one value cannot be interrupted); DNS labels have at most 63') ELSE ${body} END`;

/** A domain's labels: split at '.', '。' (U+3002), '．' (U+FF0E) and '｡' (U+FF61), as IDNA separates them. */
const labels = (domain: string): string => `string_split_regex(${domain}, '[.\\x{3002}\\x{FF0E}\\x{FF61}]')`;

export const PUNYCODE_V6_FUNCTIONS: readonly ScalarFunction[] = [
  {
    name: 'punycode_to_string',
    family: 'string',
    summary:
      'The text a Punycode string (without xn--) encodes (RFC 3492); the empty string when it is not valid Punycode. At most 256 characters (a 400 above).',
    signatures: [{ params: [{ name: 'input_string', type: 'string' }], result: 'string' }],
    duckdb: (c) => bounded('punycode_to_string', c.str(0), decodeText(c.str(0))),
    timestream: null,
  },
  {
    name: 'punycode_from_string',
    family: 'string',
    summary: 'The Punycode form of a text (RFC 3492), without xn--. At most 256 characters (a 400 above).',
    signatures: [{ params: [{ name: 'input_string', type: 'string' }], result: 'string' }],
    duckdb: (c) =>
      bounded(
        'punycode_from_string',
        c.str(0),
        `CASE WHEN ${c.str(0)} = '' THEN '' ELSE ${encodePoints(c.str(0))} END`,
      ),
    timestream: null,
  },
  {
    name: 'punycode_domain_to_string',
    family: 'string',
    summary:
      "An internationalized domain name in Punycode: each label with a non-ASCII character becomes xn-- and its encoding; labels are split at '.' and its ideographic and full-width forms and joined with '.'. At most 256 characters (a 400 above).",
    signatures: [{ params: [{ name: 'domain', type: 'string' }], result: 'string' }],
    duckdb: (c) =>
      bounded(
        'punycode_domain_to_string',
        c.str(0),
        `array_to_string(list_transform(${labels(c.str(0))}, pl -> CASE WHEN regexp_matches(pl, '[^\\x00-\\x7F]') THEN 'xn--' || ${encodePoints('pl')} ELSE pl END), '.')`,
      ),
    timestream: null,
  },
  {
    name: 'punycode_domain_from_string',
    family: 'string',
    summary:
      'The internationalized domain name a Punycode domain encodes: each label starting xn-- decoded; the empty string when one is not valid Punycode. At most 256 characters (a 400 above).',
    signatures: [{ params: [{ name: 'encoded_string', type: 'string' }], result: 'string' }],
    duckdb: (c) => {
      const decoded = `list_transform(${labels(c.str(0))}, pl -> CASE WHEN lower(left(pl, 4)) = 'xn--' THEN ${decodeText('substr(pl, 5)')} ELSE pl END)`;
      return bounded(
        'punycode_domain_from_string',
        c.str(0),
        `list_transform([${decoded}], pd -> CASE WHEN list_contains(pd, '') AND NOT list_contains(${labels(c.str(0))}, '') THEN '' ELSE array_to_string(pd, '.') END)[1]`,
      );
    },
    timestream: null,
  },
];
