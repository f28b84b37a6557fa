// Parsing of scan after the operator's word (scan operator docs,
// https://learn.microsoft.com/en-us/kusto/query/scan-operator): with_match_id, the declare list,
// and the steps `step Name [output=all|last|none]: Condition [=> Column = Expr, ...];` (the last
// step's `;` may be left out). Throws QueryError QUERY_SYNTAX for malformed text. Which steps the
// engines can run is decided later (analyze-scan.ts).
import type { Expr, ScanSpec, ScanStep } from './ast';
import type { OperatorCursor } from './parser-operators';

export function parseScan(p: OperatorCursor): ScanSpec {
  let matchId: ScanSpec['matchId'];
  if (p.peekIdent('with_match_id')) {
    p.next();
    p.expectOp('=');
    matchId = p.expectName('a column name after with_match_id=');
  }
  const declare: ScanSpec['declare'][number][] = [];
  if (p.acceptIdent('declare')) {
    p.expectOp('(');
    do {
      const name = p.expectName('a column name to declare');
      p.expectOp(':');
      const type = p.expectName('a column type');
      let value: Expr | undefined;
      if (p.acceptOp('=')) value = p.expression();
      const span = p.spanFrom(name.span.start);
      declare.push(
        value ? { name: name.name, type: type.name, default: value, span } : { name: name.name, type: type.name, span },
      );
    } while (p.acceptOp(','));
    p.expectOp(')');
  }
  p.expectIdent('with');
  p.expectOp('(');
  const steps: ScanStep[] = [];
  do steps.push(parseStep(p));
  while (p.acceptOp(';') && !p.peekOp(')'));
  p.expectOp(')');
  return matchId ? { matchId, declare, steps } : { declare, steps };
}

function parseStep(p: OperatorCursor): ScanStep {
  const start = p.peek().span.start;
  p.expectIdent('step');
  const name = p.expectName('a step name');
  let output: ScanStep['output'] = 'all';
  let outputSpan;
  if (p.peekIdent('output')) {
    const word = p.next();
    p.expectOp('=');
    const value = p.next();
    if (value.text !== 'all' && value.text !== 'last' && value.text !== 'none')
      throw p.errors.syntax(`a step's output is all, last or none, not '${value.text}'`, value.span);
    output = value.text;
    outputSpan = { start: word.span.start, end: value.span.end };
  }
  p.expectOp(':');
  const condition = p.expression();
  const assignments: ScanStep['assignments'][number][] = [];
  if (p.acceptOp('=>')) {
    do {
      const column = p.expectName('a column to assign');
      p.expectOp('=');
      const expr = p.expression();
      assignments.push({ name: column.name, expr, span: p.spanFrom(column.span.start) });
    } while (p.acceptOp(','));
  }
  const step = { name: name.name, output, condition, assignments, span: p.spanFrom(start) };
  return outputSpan ? { ...step, outputSpan } : step;
}
