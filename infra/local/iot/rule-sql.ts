// The subset of the AWS IoT rule SQL (version 2016-03-23) that the local rule engine honours:
//   SELECT *, <expr> AS name, ... FROM '<topic filter>' [WHERE <condition>]
// with topic(n), clientid(), timestamp(), encode(*, 'base64'), payload fields (a.b.c), string and
// number literals, = <> != < <= > >=, AND, OR, NOT and parentheses. Anything else is refused when
// the stack starts, naming what is not supported, so a rule is never half-honoured.

export type RuleExpr =
  | { readonly kind: 'star' }
  | { readonly kind: 'field'; readonly path: readonly string[] }
  | { readonly kind: 'literal'; readonly value: string | number | boolean }
  | {
      readonly kind: 'call';
      readonly name: 'topic' | 'clientid' | 'timestamp' | 'encode';
      readonly args: readonly RuleExpr[];
    }
  | {
      readonly kind: 'compare';
      readonly op: '=' | '<>' | '<' | '<=' | '>' | '>=';
      readonly left: RuleExpr;
      readonly right: RuleExpr;
    }
  | { readonly kind: 'logic'; readonly op: 'AND' | 'OR'; readonly left: RuleExpr; readonly right: RuleExpr }
  | { readonly kind: 'not'; readonly operand: RuleExpr };

export interface SelectItem {
  readonly expr: RuleExpr;
  /** Output key; undefined for `*`. */
  readonly alias?: string;
}

export interface ParsedRule {
  readonly select: readonly SelectItem[];
  readonly topicFilter: string;
  readonly where?: RuleExpr;
}

export class RuleSqlError extends Error {
  override readonly name = 'RuleSqlError';
}

type Token = {
  readonly type: 'word' | 'string' | 'number' | 'op' | 'punct';
  readonly text: string;
  readonly at: number;
};

function tokenize(sql: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < sql.length) {
    const ch = sql[i] as string;
    if (/\s/.test(ch)) {
      i++;
    } else if (ch === "'" || ch === '"') {
      const end = sql.indexOf(ch, i + 1);
      if (end < 0) throw new RuleSqlError(`unterminated string starting at ${i + 1}`);
      tokens.push({ type: 'string', text: sql.slice(i + 1, end), at: i });
      i = end + 1;
    } else if (/[0-9]/.test(ch)) {
      const m = /^[0-9]+(?:\.[0-9]+)?/.exec(sql.slice(i)) as RegExpExecArray;
      tokens.push({ type: 'number', text: m[0], at: i });
      i += m[0].length;
    } else if (/[A-Za-z_]/.test(ch)) {
      const m = /^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*/.exec(sql.slice(i)) as RegExpExecArray;
      tokens.push({ type: 'word', text: m[0], at: i });
      i += m[0].length;
    } else {
      const two = sql.slice(i, i + 2);
      if (['<>', '!=', '<=', '>='].includes(two)) {
        tokens.push({ type: 'op', text: two === '!=' ? '<>' : two, at: i });
        i += 2;
      } else if ('=<>'.includes(ch)) {
        tokens.push({ type: 'op', text: ch, at: i });
        i++;
      } else if ('(),*'.includes(ch)) {
        tokens.push({ type: 'punct', text: ch, at: i });
        i++;
      } else {
        throw new RuleSqlError(`character '${ch}' at ${i + 1} is not supported by the local rule engine`);
      }
    }
  }
  return tokens;
}

const FUNCTIONS = new Set(['topic', 'clientid', 'timestamp', 'encode']);

/** Parses a rule statement; throws RuleSqlError for anything outside the honoured subset. */
export function parseRuleSql(sql: string): ParsedRule {
  const tokens = tokenize(sql);
  let pos = 0;
  const peek = (): Token | undefined => tokens[pos];
  const isWord = (t: Token | undefined, w: string) => t?.type === 'word' && t.text.toUpperCase() === w;
  const expect = (text: string): void => {
    const t = tokens[pos];
    if (!t || t.text.toUpperCase() !== text) throw new RuleSqlError(`expected '${text}' at ${t ? t.at + 1 : 'end'}`);
    pos++;
  };

  const primary = (): RuleExpr => {
    const t = tokens[pos++];
    if (!t) throw new RuleSqlError('unexpected end of rule SQL');
    if (t.type === 'punct' && t.text === '*') return { kind: 'star' };
    if (t.type === 'punct' && t.text === '(') {
      const inner = orExpr();
      expect(')');
      return inner;
    }
    if (t.type === 'string') return { kind: 'literal', value: t.text };
    if (t.type === 'number') return { kind: 'literal', value: Number(t.text) };
    if (t.type === 'word') {
      const upper = t.text.toUpperCase();
      if (upper === 'TRUE' || upper === 'FALSE') return { kind: 'literal', value: upper === 'TRUE' };
      if (peek()?.text === '(') {
        const name = t.text.toLowerCase();
        if (!FUNCTIONS.has(name))
          throw new RuleSqlError(
            `function ${t.text}() is not supported by the local rule engine (supported: topic, clientid, timestamp, encode)`,
          );
        pos++;
        const args: RuleExpr[] = [];
        while (peek()?.text !== ')') {
          args.push(orExpr());
          if (peek()?.text === ',') pos++;
          else break;
        }
        expect(')');
        if (
          name === 'encode' &&
          !(args[0]?.kind === 'star' && args[1]?.kind === 'literal' && args[1].value === 'base64')
        ) {
          throw new RuleSqlError("only encode(*, 'base64') is supported by the local rule engine");
        }
        if (
          name === 'topic' &&
          !(
            args.length === 0 ||
            (args.length === 1 && args[0]?.kind === 'literal' && typeof args[0].value === 'number')
          )
        ) {
          throw new RuleSqlError('topic() takes no argument or one segment number');
        }
        return { kind: 'call', name: name as 'topic', args };
      }
      if (['SELECT', 'FROM', 'WHERE', 'AS', 'AND', 'OR', 'NOT', 'CASE', 'IN'].includes(upper))
        throw new RuleSqlError(`unexpected '${t.text}' at ${t.at + 1}`);
      return { kind: 'field', path: t.text.split('.') };
    }
    throw new RuleSqlError(`unexpected '${t.text}' at ${t.at + 1}`);
  };
  const comparison = (): RuleExpr => {
    if (isWord(peek(), 'NOT')) {
      pos++;
      return { kind: 'not', operand: comparison() };
    }
    const left = primary();
    const t = peek();
    if (t?.type === 'op') {
      pos++;
      return { kind: 'compare', op: t.text as '=', left, right: primary() };
    }
    return left;
  };
  const andExpr = (): RuleExpr => {
    let left = comparison();
    while (isWord(peek(), 'AND')) {
      pos++;
      left = { kind: 'logic', op: 'AND', left, right: comparison() };
    }
    return left;
  };
  function orExpr(): RuleExpr {
    let left = andExpr();
    while (isWord(peek(), 'OR')) {
      pos++;
      left = { kind: 'logic', op: 'OR', left, right: andExpr() };
    }
    return left;
  }

  expect('SELECT');
  const select: SelectItem[] = [];
  for (;;) {
    const expr = orExpr();
    let alias: string | undefined;
    if (isWord(peek(), 'AS')) {
      pos++;
      const name = tokens[pos++];
      if (name?.type !== 'word') throw new RuleSqlError('expected a name after AS');
      alias = name.text;
    } else if (expr.kind === 'field') {
      alias = expr.path[expr.path.length - 1];
    } else if (expr.kind !== 'star') {
      throw new RuleSqlError(
        'give every computed SELECT item a name with AS (the local rule engine does not invent names)',
      );
    }
    select.push(alias === undefined ? { expr } : { expr, alias });
    if (peek()?.text === ',') pos++;
    else break;
  }
  expect('FROM');
  const from = tokens[pos++];
  if (from?.type !== 'string') throw new RuleSqlError("FROM takes a quoted topic filter, e.g. FROM 'gdm/+/messages'");
  let where: RuleExpr | undefined;
  if (isWord(peek(), 'WHERE')) {
    pos++;
    where = orExpr();
  }
  if (pos < tokens.length) throw new RuleSqlError(`unexpected '${tokens[pos]?.text}' at ${(tokens[pos]?.at ?? 0) + 1}`);
  return where ? { select, topicFilter: from.text, where } : { select, topicFilter: from.text };
}

/** What a rule sees of one MQTT message. */
export interface RuleInput {
  readonly topic: string;
  readonly clientId: string;
  readonly payload: Buffer;
  readonly timestampMs: number;
}

const NOT_JSON = Symbol('not-json');

function payloadJson(input: RuleInput, cache: { value?: unknown }): unknown {
  if (!('value' in cache)) {
    try {
      cache.value = JSON.parse(input.payload.toString('utf8'));
    } catch {
      cache.value = NOT_JSON;
    }
  }
  return cache.value;
}

function evaluate(expr: RuleExpr, input: RuleInput, cache: { value?: unknown }): unknown {
  switch (expr.kind) {
    case 'literal':
      return expr.value;
    case 'star': {
      const json = payloadJson(input, cache);
      if (json === NOT_JSON)
        throw new RuleSqlError(
          "the payload is not JSON, so SELECT * cannot read it; select encode(*, 'base64') instead",
        );
      return json;
    }
    case 'field': {
      let value = payloadJson(input, cache);
      if (value === NOT_JSON) return undefined;
      for (const key of expr.path)
        value = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
      return value;
    }
    case 'call': {
      if (expr.name === 'clientid') return input.clientId;
      if (expr.name === 'timestamp') return input.timestampMs;
      if (expr.name === 'encode') return input.payload.toString('base64');
      const arg = expr.args[0];
      if (!arg) return input.topic;
      return input.topic.split('/')[Number((arg as { value: number }).value) - 1];
    }
    case 'not':
      return !truthy(evaluate(expr.operand, input, cache));
    case 'logic': {
      const left = truthy(evaluate(expr.left, input, cache));
      if (expr.op === 'AND') return left && truthy(evaluate(expr.right, input, cache));
      return left || truthy(evaluate(expr.right, input, cache));
    }
    case 'compare': {
      const a = evaluate(expr.left, input, cache);
      const b = evaluate(expr.right, input, cache);
      if (a === undefined || b === undefined) return undefined;
      switch (expr.op) {
        case '=':
          return a === b;
        case '<>':
          return a !== b;
        case '<':
          return (a as number) < (b as number);
        case '<=':
          return (a as number) <= (b as number);
        case '>':
          return (a as number) > (b as number);
        case '>=':
          return (a as number) >= (b as number);
      }
    }
  }
}

function truthy(value: unknown): boolean {
  return value === true;
}

/** True when the WHERE clause (if any) selects the message. */
export function ruleMatches(rule: ParsedRule, input: RuleInput): boolean {
  return rule.where === undefined || truthy(evaluate(rule.where, input, {}));
}

/** Builds the event the rule's action receives; throws RuleSqlError when the payload cannot be read. */
export function ruleOutput(rule: ParsedRule, input: RuleInput): unknown {
  const cache: { value?: unknown } = {};
  let out: Record<string, unknown> = {};
  for (const item of rule.select) {
    const value = evaluate(item.expr, input, cache);
    if (item.alias === undefined) {
      if (rule.select.length === 1) return value;
      if (value === null || typeof value !== 'object' || Array.isArray(value))
        throw new RuleSqlError('SELECT * beside other items needs a JSON object payload');
      out = { ...out, ...(value as Record<string, unknown>) };
    } else if (value !== undefined) {
      out[item.alias] = value;
    }
  }
  return out;
}

/** MQTT topic filter match with + and # wildcards. */
export function topicMatches(filter: string, topic: string): boolean {
  const f = filter.split('/');
  const t = topic.split('/');
  for (let i = 0; i < f.length; i++) {
    if (f[i] === '#') return true;
    if (i >= t.length) return false;
    if (f[i] !== '+' && f[i] !== t[i]) return false;
  }
  return f.length === t.length;
}
