// Every input of the maintenance API is bounded: each string field of every input schema has a
// maximum length (or is an enum or a calendar date), each number a minimum and a maximum; and the
// stock quantity stays inside what DynamoDB stores (1e308 was a 500 before: issue 12).
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { refusal } from '../../support/refusal';
import { parseInput } from '../../../lib/core/input';
import {
  assetsQuery,
  jobsDoneQuery,
  jobsPlannedQuery,
  MAX_QUANTITY,
  stockLevelInput,
  taskInput,
  tasksQuery,
} from '../../../lib/maintenance/schemas';

type JsonSchema = {
  type?: string | string[];
  maxLength?: number;
  enum?: unknown[];
  format?: string;
  minimum?: number;
  maximum?: number;
  properties?: Record<string, JsonSchema>;
  anyOf?: JsonSchema[];
  items?: JsonSchema;
};

/** Paths of string fields without a length bound and of number fields without both bounds. */
function unbounded(schema: JsonSchema, at = ''): string[] {
  const types = [schema.type ?? []].flat();
  const found: string[] = [];
  if (
    types.includes('string') &&
    schema.maxLength === undefined &&
    schema.enum === undefined &&
    schema.format !== 'date'
  )
    found.push(`${at}: string without maxLength`);
  if (
    (types.includes('number') || types.includes('integer')) &&
    (schema.minimum === undefined || schema.maximum === undefined)
  )
    found.push(`${at}: number without minimum and maximum`);
  for (const [name, child] of Object.entries(schema.properties ?? {})) found.push(...unbounded(child, `${at}.${name}`));
  for (const child of schema.anyOf ?? []) found.push(...unbounded(child, at));
  if (schema.items) found.push(...unbounded(schema.items, `${at}[]`));
  return found;
}

const schemas = { stockLevelInput, taskInput, jobsDoneQuery, jobsPlannedQuery, tasksQuery, assetsQuery };

describe('maintenance input bounds', () => {
  it.each(Object.entries(schemas))('%s bounds every string and number field', (_name, schema) => {
    const json = z.toJSONSchema(schema as z.ZodType, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
    expect(Object.keys(json.properties ?? {}).length).toBeGreaterThan(0);
    expect(unbounded(json)).toEqual([]);
  });

  const stock = (quantity: unknown) => ({ id: 'BELT-SPA-1250', quantity });

  it.each([1e308, MAX_QUANTITY * 10, 1e-200, 0.0000001, -1, Number.MAX_VALUE])(
    'refuses quantity %s with 400 naming quantity',
    (quantity) => {
      const error = refusal(() => parseInput(stockLevelInput, stock(quantity), 'body'));
      expect(error.code).toBe('INVALID_INPUT');
      expect(error.data[0]).toMatchObject({ field: 'quantity' });
    },
  );

  it.each([0, 0.000001, 12.5, 1_000_000, MAX_QUANTITY])('accepts quantity %s', (quantity) => {
    expect(parseInput(stockLevelInput, stock(quantity), 'body').quantity).toBe(quantity);
  });

  it.each([
    ['id', { id: 'x'.repeat(101), quantity: 1 }],
    ['remark', { ...stock(1), remark: 'r'.repeat(1001) }],
  ])('refuses an over-long %s', (field, body) => {
    expect(refusal(() => parseInput(stockLevelInput, body, 'body')).data[0]).toMatchObject({ field });
  });
});
