// The parameters of a request, as both routes read them (lib/query-api/parameters.ts): every name an
// own property (`__proto__` too), the bounds, and the field a refusal names on each route.
import { describe, expect, it } from 'vitest';
import type { AppError } from '../../../lib/core/errors';
import { parseKustoRequest } from '../../../lib/kusto/request';
import { MAX_PARAMETERS, readParameters } from '../../../lib/query-api/parameters';
import { parseQueryRequest } from '../../../lib/query-api/request';

const window = { startTime: '2026-01-01T00:00:00.000Z', endTime: '2026-01-02T00:00:00.000Z' };

function refusal(parse: () => unknown): AppError {
  try {
    parse();
  } catch (e) {
    return e as AppError;
  }
  throw new Error('expected a refusal');
}

describe('readParameters', () => {
  it('keeps every name as an own property, __proto__ and inherited names included, values as text', () => {
    // Prepare: JSON.parse makes `__proto__` an own key, as a request body does.
    const value = JSON.parse('{"__proto__": "x", "toString": 5, "constructor": true}') as unknown;
    // Act
    const read = readParameters(value);
    // Assess
    expect(read.ok).toBe(true);
    const texts = read.ok ? read.texts : {};
    expect(Object.hasOwn(texts, '__proto__')).toBe(true);
    expect(Object.entries(texts)).toEqual([
      ['__proto__', 'x'],
      ['toString', '5'],
      ['constructor', 'true'],
    ]);
    expect(Object.getPrototypeOf(texts)).toBe(Object.prototype);
  });

  it('refuses what is not an object, too many names, an empty or long name, a long or nested value', () => {
    const many = Object.fromEntries(Array.from({ length: MAX_PARAMETERS + 1 }, (_, i) => [`p${i}`, '1']));
    expect(readParameters([1])).toMatchObject({ ok: false, message: 'parameters must be an object of name: value' });
    expect(readParameters(many)).toMatchObject({ ok: false, message: `at most ${MAX_PARAMETERS} parameters` });
    expect(readParameters({ '': '1' })).toMatchObject({ ok: false, name: '' });
    expect(readParameters({ ['n'.repeat(257)]: '1' })).toMatchObject({ ok: false, name: 'n'.repeat(257) });
    expect(readParameters({ s: 'x'.repeat(65_537) })).toMatchObject({ ok: false, name: 's' });
    expect(readParameters({ d: { a: 1 } })).toMatchObject({ ok: false, name: 'd' });
    expect(readParameters({ n: null })).toMatchObject({ ok: false, name: 'n' });
  });
});

describe('the routes read parameters alike', () => {
  it('the native body keeps a parameter named __proto__', () => {
    // Act
    const request = parseQueryRequest(
      JSON.parse(`{"query": "print 1", "startTime": "${window.startTime}", "endTime": "${window.endTime}",
        "parameters": {"__proto__": "x", "n": 2}}`),
      31,
    );
    // Assess
    expect(Object.entries(request.parameters ?? {})).toEqual([
      ['__proto__', 'x'],
      ['n', '2'],
    ]);
  });

  it('names the parameter at fault: parameters.<name> natively, properties.Parameters.<name> on Kusto', () => {
    // Act
    const native = refusal(() => parseQueryRequest({ query: 'print 1', ...window, parameters: { d: [1] } }, 31));
    const kusto = refusal(() =>
      parseKustoRequest({ db: 'acme', csl: 'print 1', properties: { Parameters: { d: [1] } } }),
    );
    const kustoMany = refusal(() =>
      parseKustoRequest({
        db: 'acme',
        csl: 'print 1',
        properties: {
          Parameters: Object.fromEntries(Array.from({ length: MAX_PARAMETERS + 1 }, (_, i) => [`p${i}`, '1'])),
        },
      }),
    );
    // Assess
    expect(native.code).toBe('INVALID_INPUT');
    expect(native.data[0]).toMatchObject({ field: 'parameters.d' });
    expect(kusto.code).toBe('INVALID_INPUT');
    expect(kusto.data[0]).toMatchObject({ field: 'properties.Parameters.d' });
    expect(kustoMany.code).toBe('INVALID_INPUT');
    expect(kustoMany.data[0]).toMatchObject({ field: 'properties.Parameters' });
  });
});
