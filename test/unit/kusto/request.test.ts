// The Kusto request body, the database rule and the time window taken from Kusto's options.
import { describe, expect, it } from 'vitest';
import type { Caller } from '../../../lib/auth/caller';
import { checkDatabase, parseKustoRequest, timeWindow } from '../../../lib/kusto/request';
import { refusal } from '../../support/refusal';

const caller: Caller = { kind: 'jwt', customerId: 'acme', plantIds: ['p1'], allPlants: false, clientId: 'c1' };
const now = new Date('2026-03-10T12:00:00.000Z');

describe('parseKustoRequest', () => {
  it('takes properties as an object or as JSON text', () => {
    const options = { query_datetimescope_from: '2026-03-01T00:00:00Z' };
    expect(parseKustoRequest({ db: 'acme', csl: 'print 1', properties: { Options: options } }).options).toEqual(
      options,
    );
    expect(
      parseKustoRequest({
        db: 'acme',
        csl: 'print 1',
        properties: JSON.stringify({ Options: options, Parameters: {} }),
      }).options,
    ).toEqual(options);
    expect(parseKustoRequest({ db: 'acme', csl: 'print 1' })).toEqual({ db: 'acme', csl: 'print 1', options: {} });
  });

  it('takes properties.Parameters as text by name (numbers and bools as their text), none when empty', () => {
    // Act
    const request = parseKustoRequest({
      csl: 'declare query_parameters(n:long, s:string); print n, s',
      // JSON text: a `__proto__` key of an object literal would set the prototype, not a name.
      properties: '{"Parameters": {"n": 200000000, "s": "Flash Flood", "b": true, "__proto__": "x"}}',
    });
    // Assess
    expect(Object.entries(request.parameters!)).toEqual([
      ['n', '200000000'],
      ['s', 'Flash Flood'],
      ['b', 'true'],
      ['__proto__', 'x'],
    ]);
    expect(parseKustoRequest({ csl: 'x', properties: { Parameters: {} } }).parameters).toBeUndefined();
  });

  it('refuses a body without csl, bad properties and parameter values, naming the field', () => {
    expect(refusal(() => parseKustoRequest({ db: 'acme' })).data[0]).toMatchObject({ field: 'csl' });
    expect(refusal(() => parseKustoRequest([])).code).toBe('INVALID_INPUT');
    expect(refusal(() => parseKustoRequest({ db: 1, csl: 'x' })).data[0]).toMatchObject({ field: 'db' });
    expect(refusal(() => parseKustoRequest({ csl: 'x', properties: '{not json' })).data[0]).toMatchObject({
      field: 'properties',
    });
    expect(refusal(() => parseKustoRequest({ csl: 'x', properties: { Options: [] } })).data[0]).toMatchObject({
      field: 'properties.Options',
    });
    const parameters = refusal(() => parseKustoRequest({ csl: 'x', properties: { Parameters: { n: { a: 1 } } } }));
    expect(parameters.code).toBe('INVALID_INPUT');
    expect(parameters.data[0]).toMatchObject({ field: 'properties.Parameters.n' });
    expect(refusal(() => parseKustoRequest({ csl: 'x', properties: { Parameters: [] } })).data[0]).toMatchObject({
      field: 'properties.Parameters',
    });
  });
});

describe('checkDatabase', () => {
  it("accepts the caller's customer id and the clients' default names, and refuses another database with 403", () => {
    expect(checkDatabase('acme', caller)).toBe('acme');
    expect(checkDatabase('', caller)).toBe('acme');
    expect(checkDatabase('NetDefaultDB', caller)).toBe('acme');
    const foreign = refusal(() => checkDatabase('globex', caller));
    expect(foreign.code).toBe('FORBIDDEN');
    expect(foreign.status).toBe(403);
    expect(refusal(() => checkDatabase('ACME', caller)).code).toBe('FORBIDDEN');
  });
});

describe('timeWindow', () => {
  it('defaults to the longest window ending now', () => {
    expect(timeWindow({}, 31, now)).toEqual({
      startTime: '2026-02-07T12:00:00.000Z',
      endTime: '2026-03-10T12:00:00.000Z',
    });
  });

  it('takes query_datetimescope_from/_to in Kusto datetime formats, either alone', () => {
    expect(
      timeWindow(
        {
          query_datetimescope_column: 'Timestamp',
          query_datetimescope_from: '2026-03-01T00:00:00Z',
          query_datetimescope_to: '2026-03-02 06:30:00.1234567',
        },
        31,
        now,
      ),
    ).toEqual({ startTime: '2026-03-01T00:00:00.000Z', endTime: '2026-03-02T06:30:00.123Z' });
    expect(timeWindow({ query_datetimescope_from: '2026-03-09' }, 31, now)).toEqual({
      startTime: '2026-03-09T00:00:00.000Z',
      endTime: now.toISOString(),
    });
    expect(timeWindow({ query_datetimescope_to: '2026-01-31T00:00:00Z' }, 1, now)).toEqual({
      startTime: '2026-01-30T00:00:00.000Z',
      endTime: '2026-01-31T00:00:00.000Z',
    });
  });

  it('refuses another column, bad datetimes, an empty window and one longer than allowed', () => {
    expect(
      refusal(() => timeWindow({ query_datetimescope_column: 'IngestionTimestamp' }, 31, now)).data[0],
    ).toMatchObject({ field: 'properties.Options.query_datetimescope_column' });
    expect(refusal(() => timeWindow({ query_datetimescope_from: 'yesterday' }, 31, now)).code).toBe('INVALID_INPUT');
    expect(refusal(() => timeWindow({ query_datetimescope_from: '2026-02-30T00:00:00Z' }, 31, now)).code).toBe(
      'INVALID_INPUT',
    );
    expect(
      refusal(() =>
        timeWindow({ query_datetimescope_from: '2026-03-02', query_datetimescope_to: '2026-03-01' }, 31, now),
      ).message,
    ).toMatch(/after/);
    expect(
      refusal(() =>
        timeWindow({ query_datetimescope_from: '2026-01-01', query_datetimescope_to: '2026-03-01' }, 31, now),
      ).message,
    ).toMatch(/longer than 31 days/);
  });
});
