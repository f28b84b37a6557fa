// A graph kept in a let (parser-graph-let.ts): `let G = E | make-graph ...; G | graph-match ...`
// runs as `E | make-graph ... | graph-match ...`, its inputs read in the let's scope; any other use
// of the name is refused at it. Rows come from DuckDB.
import type { DuckDBConnection } from '@duckdb/node-api';
import { beforeAll, describe, expect, it } from 'vitest';
import { compile, convertRows, type CompileOptions } from '../../../lib/query/index';
import { compileFailure } from './compile-failure';
import { GOLDEN_OPTIONS, openFixtureDb, runSql } from '../../golden/fixture-db';

const options: CompileOptions = { ...GOLDEN_OPTIONS, dialect: 'duckdb' };

/** A chain A -> B -> C with colored nodes, and the graph over them in a let. */
const CHAIN =
  'let E = datatable(s:string, t:string)["A","B", "B","C"];\n' +
  'let N = datatable(id:string, color:string)["A","red", "B","blue", "C","green"];\n' +
  'let G = E | where s != "" | make-graph s --> t with N on id;\n';

describe('a graph kept in a let', () => {
  let db: DuckDBConnection;
  beforeAll(async () => {
    db = await openFixtureDb();
  });

  async function rows(text: string): Promise<string[]> {
    const compiled = compile(text, options);
    const converted = convertRows(
      await runSql(db, compiled.sql),
      compiled.columns.map((c) => c.type),
    );
    return converted.map((r) => JSON.stringify(r)).sort();
  }

  it('runs a graph operator after the let name as after its make-graph', async () => {
    // Prepare
    const match = '| graph-match (a)-->(b) project a = a.color, b = b.color';
    // Act
    const viaLet = await rows(`${CHAIN}G ${match}`);
    const inline = await rows(`${CHAIN}E | where s != "" | make-graph s --> t with N on id ${match}`);
    // Assess
    expect(viaLet).toEqual(['["blue","green"]', '["red","blue"]']);
    expect(viaLet).toEqual(inline);
  });

  it('uses the let in several statements and operators, each its own graph operator', async () => {
    // Act
    const counted = await rows(`${CHAIN}G | graph-to-table nodes | count`);
    const joined = await rows(
      `${CHAIN}G | graph-to-table edges | join kind=inner (G | graph-to-table nodes) on $left.s == $right.id | project s, color`,
    );
    // Assess
    expect(counted).toEqual(['[3]']);
    expect(joined).toEqual(['["A","red"]', '["B","blue"]']);
  });

  it('keeps graph-mark-components of the let and adds those of the use', async () => {
    // Act
    const marked = await rows(
      `${CHAIN.replace(' with N on id;', ' with N on id | graph-mark-components;')}G | graph-mark-components with_component_id=C2 | graph-to-table nodes | project id, ComponentId, C2`,
    );
    // Assess
    expect(marked).toEqual(['["A",0,0]', '["B",0,0]', '["C",0,0]']);
  });

  it("reads the let's inputs in its own scope: a later let of an input's name does not change the graph", async () => {
    // Act
    const result = await rows(
      `${CHAIN}let N = datatable(id:string, color:string)["A","black"];\nG | graph-to-table nodes | project id, color`,
    );
    // Assess
    expect(result).toEqual(['["A","red"]', '["B","blue"]', '["C","green"]']);
  });

  it('is hidden by a later let of its name', async () => {
    // Act
    const result = await rows(`${CHAIN}let G = print x = 1;\nG`);
    // Assess
    expect(result).toEqual(['[1]']);
  });

  it.each([
    ['as the result', 'G', '4:1'],
    ['under a tabular operator', 'G | count', '4:1'],
    ['in a join', 'print x = 1 | join (G) on x', '4:21'],
  ])('refuses the let used %s, at its name', (_, use, position) => {
    // Act
    const error = compileFailure(`${CHAIN}${use}`, options);
    // Assess
    expect(error.code).toBe('QUERY_SEMANTIC');
    expect(error.message).toMatch(
      new RegExp(`^${position}: 'G' is a graph \\(its let ends in make-graph\\), not a table`),
    );
  });

  it('refuses graph("name") (a persistent graph model), at the word', () => {
    // Act
    const error = compileFailure('graph("G") | graph-match (a)-->(b) project a', options);
    // Assess
    expect(error.code).toBe('QUERY_UNSUPPORTED');
    expect(error.message).toMatch(/^1:1: graph\("name"\) reads a persistent graph model/);
  });

  it('refuses a graph that ends a sub-query or a let inside a function, at make-graph', () => {
    // Act
    const nested = compileFailure(
      'let E = datatable(s:string, t:string)["A","B"];\nprint toscalar(E | make-graph s --> t)',
      options,
    );
    const inFunction = compileFailure(
      'let E = datatable(s:string, t:string)["A","B"];\nlet f = () { let G = E | make-graph s --> t; G | graph-to-table nodes };\nf()',
      options,
    );
    // Assess
    expect(nested.message).toMatch(/^2:20: make-graph returns a graph, not a table/);
    expect(inFunction.message).toMatch(/^2:26: make-graph returns a graph, not a table/);
  });
});
