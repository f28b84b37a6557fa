// The v2 frames and v1 tables as Kusto writes them: every column type's value encoding checked on
// the JSON text, and the whole answer read back by the official SDK's own response parser.
import { Client } from 'azure-kusto-data';
import { describe, expect, it } from 'vitest';
import { convertRow, type KqlType } from '../../../lib/query';
import { v2ResponseJson } from '../../../lib/kusto/frames';
import type { KustoQueryResult, KustoRequestInfo } from '../../../lib/kusto/result';
import { v1CommandJson, v1QueryJson } from '../../../lib/kusto/v1';
import { cellJson } from '../../../lib/kusto/values';

const info: KustoRequestInfo = {
  clientRequestId: 'KNC.execute;1234',
  activityId: '5935a050-e466-48a0-991d-0ec26bd61c7e',
  now: new Date('2026-01-02T03:04:05.000Z'),
  executionMs: 12,
};

/** One column of each type, with a value as the engine hands it over and Kusto's JSON of it. */
const EVERY_TYPE: readonly { type: KqlType; engine: unknown; json: string }[] = [
  { type: 'string', engine: 'a "quoted" text', json: '"a \\"quoted\\" text"' },
  // A TIMESTAMP_NS cell as DuckDB hands it over: Kusto writes its 7th digit (a 100 ns tick).
  { type: 'datetime', engine: '2026-01-02 03:04:05.1234567', json: '"2026-01-02T03:04:05.1234567Z"' },
  { type: 'dynamic', engine: '{"a":[1,2],"b":null}', json: '{"a":[1,2],"b":null}' },
  { type: 'long', engine: '9007199254740993', json: '9007199254740993' },
  { type: 'int', engine: 7, json: '7' },
  { type: 'real', engine: 'NaN', json: '"NaN"' },
  { type: 'bool', engine: true, json: 'true' },
  { type: 'timespan', engine: '90061001001', json: '"1.01:01:01.0010010"' },
  { type: 'guid', engine: '74be27de-1e4e-49d9-b579-fe0b331d3642', json: '"74be27de-1e4e-49d9-b579-fe0b331d3642"' },
  { type: 'decimal', engine: '1.5', json: '"1.5"' },
];

const types = EVERY_TYPE.map((t) => t.type);
const result: KustoQueryResult = {
  columns: EVERY_TYPE.map((t) => ({ name: `c_${t.type}`, type: t.type })),
  rows: [
    convertRow(
      EVERY_TYPE.map((t) => t.engine),
      types,
    ),
    convertRow(
      EVERY_TYPE.map(() => null),
      types,
    ),
  ],
};

type Frame = Record<string, unknown> & { FrameType: string };
type Table = {
  TableId: number;
  TableName: string;
  TableKind: string;
  Columns: { ColumnName: string; ColumnType: string }[];
  Rows: unknown[][];
};
const parseSdk = (json: string, kind: 'query' | 'queryv1') =>
  new Client('http://127.0.0.1:1')._parseResponse(JSON.parse(json), kind as never);

describe('v2 value encoding', () => {
  it.each(EVERY_TYPE)('writes $type as Kusto does', ({ type, engine, json }) => {
    // Prepare
    const [value] = convertRow([engine], [type]);
    // Act, Assess
    expect(cellJson(value, type)).toBe(json);
    expect(cellJson(null, type)).toBe('null');
  });

  it('keeps a long beyond 2^53 exact in the text and writes real infinities as strings', () => {
    expect(cellJson('-9223372036854775808', 'long')).toBe('-9223372036854775808');
    expect(cellJson(convertRow([Infinity], ['real'])[0], 'real')).toBe('"Infinity"');
    expect(cellJson(convertRow([null], ['string'])[0], 'string')).toBe('""');
  });
});

describe('v2 frames', () => {
  it('writes the five frames in Kusto order with the column types and rows', () => {
    // Act
    const text = v2ResponseJson(result, info);
    const frames = JSON.parse(text) as Frame[];
    // Assess
    expect(frames.map((f) => f.FrameType)).toEqual([
      'DataSetHeader',
      'DataTable',
      'DataTable',
      'DataTable',
      'DataSetCompletion',
    ]);
    expect(frames[0]).toEqual({
      FrameType: 'DataSetHeader',
      IsProgressive: false,
      Version: 'v2.0',
      IsFragmented: false,
      ErrorReportingPlacement: 'InData',
    });
    const [props, primary, completion] = frames.slice(1, 4) as unknown as Table[];
    expect([props!.TableName, props!.TableKind, primary!.TableKind, completion!.TableKind]).toEqual([
      '@ExtendedProperties',
      'QueryProperties',
      'PrimaryResult',
      'QueryCompletionInformation',
    ]);
    expect(primary!.Columns).toEqual(EVERY_TYPE.map((t) => ({ ColumnName: `c_${t.type}`, ColumnType: t.type })));
    expect(text).toContain(
      `"Rows":[[${EVERY_TYPE.map((t) => t.json).join(',')}],[${EVERY_TYPE.map((t) => (t.type === 'string' ? '""' : 'null')).join(',')}]]`,
    );
    expect(completion!.Rows[0]).toEqual([
      info.now.toISOString(),
      info.clientRequestId,
      info.activityId,
      info.activityId,
      info.activityId,
      4,
      'Info',
      0,
      'S_OK (0)',
      4,
      'QueryInfo',
      expect.stringContaining('Query completed successfully'),
    ]);
    expect(frames[4]).toEqual({ FrameType: 'DataSetCompletion', HasErrors: false, Cancelled: false });
  });

  it('is read by the SDK: primary result, typed values and no errors', () => {
    // Act
    const data = parseSdk(v2ResponseJson(result, info), 'query');
    // Assess
    expect(data.getErrorsCount().errors).toBe(0);
    const row = [...data.primaryResults[0]!.rows()][0]!;
    expect(row.c_datetime).toEqual(new Date('2026-01-02T03:04:05.123Z'));
    expect(row.c_dynamic).toEqual({ a: [1, 2], b: null });
    expect(row.c_timespan).toBe(90_061_001.001);
  });

  it('carries render as the Visualization property, all null without it', () => {
    const rendered = v2ResponseJson(
      { ...result, render: { visualization: 'timechart', properties: { title: '"Temps"', ycolumns: 'avg_Value' } } },
      info,
    );
    const props = (JSON.parse(rendered) as Table[])[1]!;
    expect(props.Rows).toHaveLength(1);
    expect(props.Rows[0]![0]).toBe(1);
    expect(props.Rows[0]![1]).toBe('Visualization');
    expect(JSON.parse(props.Rows[0]![2] as string)).toMatchObject({
      Visualization: 'timechart',
      Title: 'Temps',
      YColumns: 'avg_Value',
      XColumn: null,
    });
    const plain = (JSON.parse(v2ResponseJson(result, info)) as Table[])[1]!;
    expect(JSON.parse(plain.Rows[0]![2] as string)).toMatchObject({ Visualization: null, Title: null });
  });

  it("reports a cut result as Kusto's partial query failure: the rows, an Error row and HasErrors", () => {
    // Act
    const cut = v2ResponseJson(
      { ...result, truncation: { reason: 'rowLimit', rowLimit: 2, maxResponseBytes: 1000 } },
      info,
    );
    const frames = JSON.parse(cut) as Frame[];
    // Assess
    expect((frames[2] as unknown as Table).Rows).toHaveLength(2);
    expect((frames[3] as unknown as Table).Rows[0]!.slice(5, 9)).toEqual([
      2,
      'Error',
      0x80da0003 | 0,
      'LimitsExceeded (0x80DA0003)',
    ]);
    expect(frames[4]).toMatchObject({
      HasErrors: true,
      Cancelled: false,
      OneApiErrors: [
        {
          error: {
            code: 'LimitsExceeded',
            '@permanent': false,
            '@message': expect.stringContaining('record count limit 2 (E_QUERY_RESULT_SET_TOO_LARGE'),
          },
        },
      ],
    });
    expect(() => parseSdk(cut, 'query')).toThrow(/E_QUERY_RESULT_SET_TOO_LARGE/);
  });
});

describe('v1 tables', () => {
  it('writes the result, properties, status and table of contents the SDK reads', () => {
    // Act
    const text = v1QueryJson(result, info);
    const body = JSON.parse(text) as { Tables: { TableName: string; Columns: unknown[]; Rows: unknown[][] }[] };
    const data = parseSdk(text, 'queryv1');
    // Assess
    expect(body.Tables.map((t) => t.TableName)).toEqual(['Table_0', 'Table_1', 'Table_2', 'Table_3']);
    expect(body.Tables[0]!.Columns[3]).toEqual({ ColumnName: 'c_long', DataType: 'Int64', ColumnType: 'long' });
    expect(body.Tables[3]!.Rows.map((r) => r.slice(0, 3))).toEqual([
      [0, 'QueryResult', 'PrimaryResult'],
      [1, 'QueryProperties', '@ExtendedProperties'],
      [2, 'QueryStatus', 'QueryStatus'],
    ]);
    expect(data.primaryResults).toHaveLength(1);
    expect(data.primaryResults[0]!.name).toBe('PrimaryResult');
    expect(data.getErrorsCount().errors).toBe(0);
    expect([...data.primaryResults[0]!.rows()][0]!.c_int).toBe(7);
  });

  it('reports a cut result with an Error row in QueryStatus (the Node SDK reads v1 status kinds too late to raise it)', () => {
    // Act
    const cut = v1QueryJson(
      { ...result, truncation: { reason: 'responseBytes', rowLimit: 10, maxResponseBytes: 5000 } },
      info,
    );
    const status = (JSON.parse(cut) as { Tables: { Rows: unknown[][] }[] }).Tables[2]!.Rows[0]!;
    // Assess
    expect(status.slice(1, 5)).toEqual([
      2,
      'Error',
      0x80da0003 | 0,
      expect.stringContaining('data size limit 5000 (E_QUERY_RESULT_SET_TOO_LARGE'),
    ]);
    expect(parseSdk(cut, 'queryv1').primaryResults[0]!._rows).toHaveLength(2);
  });

  it('answers a command with one table, which the SDK takes as the primary result', () => {
    const data = parseSdk(v1CommandJson([{ name: 'TableName', type: 'string' }], [['States'], ['Events']]), 'queryv1');
    expect([...data.primaryResults[0]!.rows()].map((r) => r.TableName)).toEqual(['States', 'Events']);
  });
});
