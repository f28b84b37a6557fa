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
    // The graph hides an earlier let or table of its name wherever a table name is read.
    ['by name in a union', 'union G', '4:7'],
    ['by name in a join', 'print s = "A" | join kind=inner G on s', '4:33'],
    ['by name in a lookup', 'print s = "A" | lookup G on s', '4:24'],
  ])('refuses the let used %s, at its name', (_, use, position) => {
    // Act
    const error = compileFailure(`${CHAIN}${use}`, options);
    // Assess
    expect(error.code).toBe('QUERY_SEMANTIC');
    expect(error.message).toMatch(
      new RegExp(`^${position}: 'G' is a graph \\(its let ends in make-graph\\), not a table`),
    );
  });

  it('hides an earlier let of its name in a union, a join and a lookup', () => {
    // Prepare: G was a table before the graph let of that name.
    const shadowed = `let G = print x = 1;\n${CHAIN}`;
    // Act
    const errors = ['union G', 'print s = "A" | join kind=inner G on s', 'print s = "A" | lookup G on s'].map((use) =>
      compileFailure(`${shadowed}${use}`, options),
    );
    // Assess
    for (const error of errors) expect(error.message).toMatch(/'G' is a graph \(its let ends in make-graph\)/);
  });

  it("reads a table of the graph let's own name in its inputs, before the let hides it", async () => {
    // Act: the let States reads the table States for its edges and nodes.
    const result = await rows(
      'let States = States | take 3 | make-graph Name --> Unit with States on Name;\nStates | graph-to-table edges | count',
    );
    // Assess
    expect(result).toEqual(['[3]']);
  });

  it('is hidden by restrict access like any let, also through a graph operator', () => {
    // Act
    const hidden = compileFailure(`${CHAIN}restrict access to (Events);\nG | graph-to-table edges`, options);
    const allowed = compile(`${CHAIN}restrict access to (G);\nG | graph-to-table edges`, options);
    // Assess
    expect(hidden.message).toMatch(/^5:1: 'G' is not accessible: the restrict statement at 4:1 allows only \(Events\)/);
    expect(allowed.columns.map((c) => c.name)).toEqual(['s', 't']);
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
