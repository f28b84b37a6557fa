// Unicode property names as Kusto's regex syntax page writes them (`\pL`, `\p{Greek}`, `\p{Letter}`,
// and in its examples `\p{Uppercase}`, `\p{ascii}`, `\p{White_Space}`, `\p{Alphabetic}`), matched
// loosely (case, spaces, `_` and `-` ignored, as Unicode's loose matching), resolved to what RE2
// reads: general categories by their short names, scripts by their own names, and the binary
// properties RE2 lacks as the code points JavaScript's property escapes give.
import { cacheSet, codePointsOf, type CodePoints } from './regex-codepoints';

/** A property: RE2's own spelling where it has one, and always its code points on demand. */
export interface UnicodeProperty {
  /** `\p{..}` body RE2 reads (`Lu`, `Greek`), or undefined where RE2 has none (binary properties). */
  readonly re2?: string;
  /** A script (Java, Timestream's engine, names it `IsGreek`; RE2 `Greek`). */
  readonly script?: boolean;
  /** The JavaScript class body of the same members (`\p{Lu}`, `\p{Script=Greek}`). */
  readonly js: string;
}

/** A property name as Unicode's loose matching compares it: case, spaces, `_` and `-` ignored. */
export function looseName(name: string): string {
  return name.replace(/[\s_-]/g, '').toLowerCase();
}

const CATEGORY_NAMES: Record<string, string> = {
  L: 'Letter',
  LC: 'Cased_Letter',
  Lu: 'Uppercase_Letter',
  Ll: 'Lowercase_Letter',
  Lt: 'Titlecase_Letter',
  Lm: 'Modifier_Letter',
  Lo: 'Other_Letter',
  M: 'Mark',
  Mn: 'Nonspacing_Mark',
  Mc: 'Spacing_Mark',
  Me: 'Enclosing_Mark',
  N: 'Number',
  Nd: 'Decimal_Number',
  Nl: 'Letter_Number',
  No: 'Other_Number',
  P: 'Punctuation',
  Pc: 'Connector_Punctuation',
  Pd: 'Dash_Punctuation',
  Ps: 'Open_Punctuation',
  Pe: 'Close_Punctuation',
  Pi: 'Initial_Punctuation',
  Pf: 'Final_Punctuation',
  Po: 'Other_Punctuation',
  S: 'Symbol',
  Sm: 'Math_Symbol',
  Sc: 'Currency_Symbol',
  Sk: 'Modifier_Symbol',
  So: 'Other_Symbol',
  Z: 'Separator',
  Zs: 'Space_Separator',
  Zl: 'Line_Separator',
  Zp: 'Paragraph_Separator',
  C: 'Other',
  Cc: 'Control',
  Cf: 'Format',
  Cs: 'Surrogate',
  Co: 'Private_Use',
  Cn: 'Unassigned',
};

/** General categories by loose long or short name, to the short name both engines read. */
const GENERAL_CATEGORIES = new Map(
  Object.entries(CATEGORY_NAMES).flatMap(([short, long]) => [
    [looseName(long), short],
    [looseName(short), short],
  ]),
);

/**
 * ECMAScript's binary properties (what JavaScript can scan), by loose name and a few short
 * aliases; RE2 reads none of them but Any.
 */
const BINARY_PROPERTIES = new Map(
  [
    'ASCII',
    'ASCII_Hex_Digit',
    'Alphabetic',
    'Any',
    'Assigned',
    'Bidi_Control',
    'Bidi_Mirrored',
    'Case_Ignorable',
    'Cased',
    'Changes_When_Casefolded',
    'Changes_When_Casemapped',
    'Changes_When_Lowercased',
    'Changes_When_NFKC_Casefolded',
    'Changes_When_Titlecased',
    'Changes_When_Uppercased',
    'Dash',
    'Default_Ignorable_Code_Point',
    'Deprecated',
    'Diacritic',
    'Emoji',
    'Emoji_Component',
    'Emoji_Modifier',
    'Emoji_Modifier_Base',
    'Emoji_Presentation',
    'Extended_Pictographic',
    'Extender',
    'Grapheme_Base',
    'Grapheme_Extend',
    'Hex_Digit',
    'IDS_Binary_Operator',
    'IDS_Trinary_Operator',
    'ID_Continue',
    'ID_Start',
    'Ideographic',
    'Join_Control',
    'Logical_Order_Exception',
    'Lowercase',
    'Math',
    'Noncharacter_Code_Point',
    'Pattern_Syntax',
    'Pattern_White_Space',
    'Quotation_Mark',
    'Radical',
    'Regional_Indicator',
    'Sentence_Terminal',
    'Soft_Dotted',
    'Terminal_Punctuation',
    'Unified_Ideograph',
    'Uppercase',
    'Variation_Selector',
    'White_Space',
    'XID_Continue',
    'XID_Start',
  ]
    .map((name): [string, string] => [looseName(name), name])
    .concat([
      ['alpha', 'Alphabetic'],
      ['upper', 'Uppercase'],
      ['lower', 'Lowercase'],
      ['wspace', 'White_Space'],
      ['space', 'White_Space'],
      ['joinc', 'Join_Control'],
    ]),
);

/** Whether JavaScript reads a property escape body (a script's exact name, say). */
function jsKnows(body: string): boolean {
  try {
    new RegExp(`\\p{${body}}`, 'u');
    return true;
  } catch {
    return false;
  }
}

/** A script's own name from a loose spelling (`old italic` is `Old_Italic`), or undefined. */
function scriptName(value: string, property: 'Script' | 'Script_Extensions'): string | undefined {
  const titled = value
    .split(/[\s_-]+/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1).toLowerCase())
    .join('_');
  return [titled, value].find((name) => /^\w+$/.test(name) && jsKnows(`${property}=${name}`));
}

/**
 * The property a `\p{..}` body (or a one-letter `\pX`) names, or undefined when it names none
 * Kusto's page or Unicode knows: `Greek`, `Script=Greek`, `sc:Greek`, `scx=Greek`,
 * `General_Category=Letter`, `gc=Lu`, `Letter`, `Lu`, `Alphabetic`.
 */
export function unicodeProperty(body: string): UnicodeProperty | undefined {
  return resolved.has(body) ? resolved.get(body) : cacheSet(resolved, body, resolve(body));
}

/** Names already resolved (each script name costs a JavaScript regex compilation). */
const resolved = new Map<string, UnicodeProperty | undefined>();

function resolve(body: string): UnicodeProperty | undefined {
  const pair = /^([^=:]*)[=:](.*)$/.exec(body);
  if (pair) return propertyValue(looseName(pair[1]!), pair[2]!.trim());
  const loose = looseName(body);
  const category = GENERAL_CATEGORIES.get(loose);
  if (category) return categoryProperty(category);
  const binary = BINARY_PROPERTIES.get(loose);
  if (binary) return { re2: binary === 'Any' ? 'Any' : undefined, js: `\\p{${binary}}` };
  return scriptProperty(scriptName(body.trim(), 'Script'));
}

/**
 * A script by its name: RE2 reads the long names only (`Greek`), so a four-letter ISO 15924 code
 * (`Grek`, `Latn`, `Zyyy`), which JavaScript reads, is computed from JavaScript's tables.
 */
function scriptProperty(script: string | undefined): UnicodeProperty | undefined {
  if (!script) return undefined;
  return { re2: script.length === 4 ? undefined : script, script: true, js: `\\p{Script=${script}}` };
}

/** RE2 reads every general category's short name but LC and Cn (its tables have neither). */
function categoryProperty(category: string): UnicodeProperty {
  return { re2: category === 'LC' || category === 'Cn' ? undefined : category, js: `\\p{${category}}` };
}

function propertyValue(property: string, value: string): UnicodeProperty | undefined {
  if (property === 'generalcategory' || property === 'gc') {
    const category = GENERAL_CATEGORIES.get(looseName(value));
    return category ? categoryProperty(category) : undefined;
  }
  if (property === 'script' || property === 'sc') {
    return scriptProperty(scriptName(value, 'Script'));
  }
  if (property === 'scriptextensions' || property === 'scx') {
    const script = scriptName(value, 'Script_Extensions');
    return script ? { js: `\\p{Script_Extensions=${script}}` } : undefined;
  }
  return undefined;
}

/** The property's code points (scanned once per property, cached). */
export function propertyCodePoints(property: UnicodeProperty): CodePoints {
  return codePointsOf(property.js);
}

/** A `\p{..}`, `\P{..}`, `\pX` or `\PX` escape read from its backslash. */
export interface PropertyEscape {
  /** `\P`, or `\p{^..}` (RE2's and Oniguruma's negation inside the braces). */
  readonly negated: boolean;
  /** The property named, or undefined when the name is none Unicode or the page knows. */
  readonly property: UnicodeProperty | undefined;
  /** The escape as written, for a message or to keep it. */
  readonly text: string;
}

/** The property escape at the start of `text` (its backslash), or undefined when there is none. */
export function propertyEscape(text: string): PropertyEscape | undefined {
  const m = /^\\([pP])(?:\{(\^?)([^}]*)\}|([A-Za-z]))/.exec(text);
  if (!m) return undefined;
  return { negated: (m[1] === 'P') !== (m[2] === '^'), property: unicodeProperty(m[3] ?? m[4]!), text: m[0] };
}
