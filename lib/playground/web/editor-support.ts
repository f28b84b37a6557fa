// Which Kusto functions this service compiles, shown in the editor. monaco-kusto knows every Kusto
// function; the service compiles a subset (PlaygroundSchema.functions). Two places mark the rest:
// - completion: monaco-kusto's `onDidProvideCompletionItems` hook (the one place it lets a host
//   change items) gets the items; unsupported functions keep their place in the list but sort
//   after the supported ones and their detail starts with "not supported by this service";
// - diagnostics: a warning under our own marker owner on each call of an unsupported function,
//   whose names come from the language service (getReferencedSymbols, kind Function), so a
//   column or a word in a string is never taken for a function.
// Pure (no DOM, no Monaco): unit-tested.

export const UNSUPPORTED_DETAIL = 'not supported by this service';

/** The fields of a language-server completion item this module reads or changes. */
export interface CompletionItemLike {
  readonly label: string;
  readonly detail?: string | undefined;
  readonly sortText?: string | undefined;
  readonly insertText?: string | undefined;
  readonly textEdit?: { readonly newText: string } | undefined;
}

/** An empty list means "not known yet" (the schema has not arrived): nothing is marked then. */
export function supportedSet(functions: readonly string[]): ReadonlySet<string> | undefined {
  return functions.length === 0 ? undefined : new Set(functions);
}

// monaco-kusto inserts a function as `name(` (plain) or `name($0)` (snippet); operators, columns
// and keywords are inserted without the parenthesis.
function calledName(item: CompletionItemLike): string | undefined {
  const text = item.textEdit?.newText ?? item.insertText ?? item.label;
  return /^([A-Za-z_][A-Za-z0-9_]*)\(/.exec(text)?.[1];
}

/** The completion items with unsupported functions marked and sorted after the rest. */
export function markCompletions<T extends CompletionItemLike>(
  items: readonly T[],
  supported: ReadonlySet<string> | undefined,
): T[] {
  if (!supported) return [...items];
  return items.map((item) => {
    const name = calledName(item);
    if (name === undefined || supported.has(name)) return item;
    const detail = item.detail ? `${UNSUPPORTED_DETAIL}: ${item.detail}` : UNSUPPORTED_DETAIL;
    return { ...item, detail, sortText: `~${item.sortText ?? item.label}` };
  });
}

/** A call of an unsupported function: the name's offsets in the document. */
export interface UnsupportedCall {
  readonly name: string;
  readonly start: number;
  readonly end: number;
}

/** Offsets of the code (outside strings and comments) of a KQL text, as [start, end) spans. */
function codeSpans(text: string): Array<readonly [number, number]> {
  const spans: Array<readonly [number, number]> = [];
  let codeStart = 0;
  let i = 0;
  const skipTo = (end: number): void => {
    if (i > codeStart) spans.push([codeStart, i]);
    i = end;
    codeStart = end;
  };
  while (i < text.length) {
    const rest = text.slice(i, i + 3);
    if (rest.startsWith('//')) {
      const newline = text.indexOf('\n', i);
      skipTo(newline === -1 ? text.length : newline);
    } else if (rest === '```') {
      const close = text.indexOf('```', i + 3);
      skipTo(close === -1 ? text.length : close + 3);
    } else if (rest.startsWith("@'") || rest.startsWith('@"')) {
      // Verbatim string: no escapes, a doubled quote stands for one.
      const quote = rest[1] as string;
      let j = i + 2;
      while (j < text.length && !(text[j] === quote && text[j + 1] !== quote)) j += text[j] === quote ? 2 : 1;
      skipTo(Math.min(j + 1, text.length));
    } else if (rest[0] === "'" || rest[0] === '"') {
      const quote = rest[0];
      let j = i + 1;
      while (j < text.length && text[j] !== quote && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
      skipTo(Math.min(j + 1, text.length));
    } else {
      i += 1;
    }
  }
  if (codeStart < text.length) spans.push([codeStart, text.length]);
  return spans;
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Calls of unsupported functions in one statement. `referenced` are the names the language service
 * resolved to function symbols in it; functions the statement declares with `let` are its own.
 */
export function unsupportedCalls(
  statement: { readonly text: string; readonly start: number },
  referenced: readonly string[],
  supported: ReadonlySet<string> | undefined,
): UnsupportedCall[] {
  if (!supported) return [];
  const declared = new Set([...statement.text.matchAll(/\blet\s+([A-Za-z_][A-Za-z0-9_]*)\s*=/g)].map((m) => m[1]));
  const names = [...new Set(referenced)].filter((n) => !supported.has(n) && !declared.has(n));
  if (names.length === 0) return [];
  const call = new RegExp(`(?<![A-Za-z0-9_.])(${names.map(escapeRegExp).join('|')})(?=\\s*\\()`, 'g');
  const calls: UnsupportedCall[] = [];
  for (const [from, to] of codeSpans(statement.text)) {
    for (const m of statement.text.slice(from, to).matchAll(call)) {
      const start = statement.start + from + (m.index ?? 0);
      calls.push({ name: m[1] as string, start, end: start + (m[1] as string).length });
    }
  }
  return calls;
}
