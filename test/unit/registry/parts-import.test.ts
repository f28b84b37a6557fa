// Part rows of `insights-admin import parts`, through the shared row validation.
import { describe, expect, it } from 'vitest';
import { validateRows } from '../../../lib/import/run';
import { partsKind } from '../../../lib/registry/parts-import';

describe('parts import rows', () => {
  it('validates part rows: unit upper-cased and checked, unknown columns refused', () => {
    const { valid, errors } = validateRows(partsKind, [
      { line: 2, value: { partNumber: 'A', unit: 'liter' } },
      { line: 3, value: { partNumber: 'B', unit: 'bucket' } },
      { line: 4, value: { partNumber: 'C', colour: 'red' } },
    ]);
    expect(valid).toEqual([{ line: 2, row: { partNumber: 'A', unit: 'LITER' } }]);
    expect(errors.map((e) => [e.line, e.field])).toEqual([
      [3, 'unit'],
      [4, '(row)'],
    ]);
  });
});
