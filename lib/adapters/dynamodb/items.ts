// Reading stored items: every item a DynamoDB adapter returns goes through a zod schema of its
// stored shape (item-schemas.ts) instead of an unchecked cast, so that an item written by an older
// version, by hand or by a bug fails here, named, rather than somewhere far from the table.
import type { z } from 'zod';
import { AppError } from '../../core/errors';

/** Attributes that locate an item, shown in the error so that an operator can find it. */
function keyOf(item: Readonly<Record<string, unknown>>): string {
  return ['PK', 'SK'].map((name) => (typeof item[name] === 'string' ? item[name] : '?')).join(' / ');
}

/**
 * The item as its schema reads it. Object schemas drop attributes they do not name (keys,
 * index keys, Type, Rev, ExpiresAt), so the result is exactly the record.
 * @throws AppError INTERNAL_ERROR naming the kind, the item's key and each field that does not match.
 */
export function parseItem<T>(schema: z.ZodType<T>, kind: string, item: Readonly<Record<string, unknown>>): T {
  const parsed = schema.safeParse(item);
  if (parsed.success) return parsed.data;
  const fields = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(item)'}: ${issue.message}`);
  throw new AppError(
    'INTERNAL_ERROR',
    `stored ${kind} item ${keyOf(item)} does not match its schema (${fields.join('; ')})`,
    { kind, fields },
    { cause: parsed.error },
  );
}

/** parseItem for an item that may be absent (GetItem of a missing key). */
export function parseOptionalItem<T>(
  schema: z.ZodType<T>,
  kind: string,
  item: Readonly<Record<string, unknown>> | undefined,
): T | undefined {
  return item === undefined ? undefined : parseItem(schema, kind, item);
}
