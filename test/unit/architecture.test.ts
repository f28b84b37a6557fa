// The module structure of lib/ and functions/, read from the real import graph: no import cycles,
// and imports point inward only: the domain (every lib/<area> but adapters, wiring and cli) never
// imports adapters or composition code, adapters never the composition roots. Every relative specifier counts, `import type` and `export ... from` included,
// since a type-only cycle still ties two modules together.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SCANNED = ['lib', 'functions'];
const SOURCE = /\.(ts|mts|mjs|js)$/;

type Graph = ReadonlyMap<string, readonly string[]>;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return SOURCE.test(name) && !name.endsWith('.d.ts') ? [full] : [];
  });
}

/** The file a relative specifier names, as the bundler resolution of tsconfig.json finds it. */
function resolveSpecifier(from: string, specifier: string): string | undefined {
  const base = path.resolve(path.dirname(from), specifier);
  const candidates = [
    base,
    `${base}.ts`,
    `${base}.mts`,
    path.join(base, 'index.ts'),
    base.replace(/\.js$/, '.ts'),
    base.replace(/\.mjs$/, '.mts'),
  ];
  return candidates.find((c) => existsSync(c) && statSync(c).isFile());
}

/** Repository-relative paths, each with the repository files it imports. @throws on a specifier that names no file. */
function importGraph(files: readonly string[]): Graph {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = importedFiles
      .map((i) => i.fileName)
      .filter((s) => s.startsWith('.'))
      .map((s) => {
        const target = resolveSpecifier(file, s);
        if (target === undefined) throw new Error(`${path.relative(ROOT, file)}: cannot resolve "${s}"`);
        return path.relative(ROOT, target);
      });
    graph.set(path.relative(ROOT, file), [...new Set(targets)]);
  }
  return graph;
}

/** Every cycle's files, as one path that closes on its start (a → b → a), found by Tarjan's components. */
function cycles(graph: Graph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || (graph.get(node) ?? []).includes(node)) components.push(component);
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return components.map((component) => closedPath(graph, new Set(component)));
}

/** One concrete cycle inside a strongly connected component, so the message names real imports. */
function closedPath(graph: Graph, members: ReadonlySet<string>): string[] {
  const start = [...members].sort()[0]!;
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const next of graph.get(node) ?? []) {
      if (next === start) {
        const trail = [node];
        while (trail[0] !== start) trail.unshift(previous.get(trail[0]!)!);
        return [...trail, start];
      }
      if (members.has(next) && !previous.has(next)) {
        previous.set(next, node);
        queue.push(next);
      }
    }
  }
  return [...members];
}

type Layer = 'domain' | 'adapters' | 'wiring' | 'cli' | 'functions';

/** What each layer must not import: inner layers never know the outer ones that compose them. */
const FORBIDDEN: Readonly<Record<Layer, readonly Layer[]>> = {
  domain: ['adapters', 'wiring', 'cli', 'functions'],
  adapters: ['wiring', 'cli', 'functions'],
  wiring: ['cli', 'functions'],
  cli: ['functions'],
  functions: ['cli'],
};

function layerOf(file: string): Layer {
  if (file.startsWith('functions/')) return 'functions';
  const area = file.split('/')[1] ?? '';
  return area === 'adapters' || area === 'wiring' || area === 'cli' ? area : 'domain';
}

/** Imports against the direction of the layers, as `from -> to (layer must not import layer)`. */
function forbiddenImports(graph: Graph): string[] {
  return [...graph].flatMap(([file, targets]) => {
    const from = layerOf(file);
    return targets
      .filter((t) => FORBIDDEN[from].includes(layerOf(t)))
      .map((t) => `${file} -> ${t} (${from} must not import ${layerOf(t)})`);
  });
}

describe('module structure of lib/ and functions/', () => {
  const graph = importGraph(SCANNED.flatMap((dir) => sourceFiles(path.join(ROOT, dir))));

  it('reads the real graph (the walker sees the files and their imports)', () => {
    // Assess: known edges, so an empty or broken walk cannot pass the checks below
    expect(graph.size).toBeGreaterThan(100);
    expect(graph.get('lib/cli/gdm-main.ts')).toContain('lib/cli/gdm/main.ts');
    expect(graph.get('functions/ingest/handler.ts')?.some((t) => t.startsWith('lib/wiring/'))).toBe(true);
  });

  it('has no import cycle', () => {
    expect(cycles(graph).map((c) => c.join(' -> '))).toEqual([]);
  });

  it('imports only inward: domain <- adapters <- wiring <- cli and functions', () => {
    expect(forbiddenImports(graph)).toEqual([]);
  });

  it('reports a cycle and a forbidden direction by their files', () => {
    // Prepare: a graph with a three-file cycle, a self-import and a domain module importing an adapter
    const sample: Graph = new Map([
      ['lib/a/x.ts', ['lib/b/y.ts']],
      ['lib/b/y.ts', ['lib/c/z.ts', 'lib/adapters/db.ts']],
      ['lib/c/z.ts', ['lib/a/x.ts']],
      ['lib/d/self.ts', ['lib/d/self.ts']],
      ['lib/adapters/db.ts', []],
      ['lib/cli/main.ts', ['lib/wiring/app.ts']],
      ['lib/wiring/app.ts', ['lib/cli/help.ts', 'lib/adapters/db.ts']],
      ['lib/cli/help.ts', []],
      ['functions/f/handler.ts', ['lib/wiring/app.ts']],
    ]);
    // Act / Assess
    expect(
      cycles(sample)
        .map((c) => c.join(' -> '))
        .sort(),
    ).toEqual(['lib/a/x.ts -> lib/b/y.ts -> lib/c/z.ts -> lib/a/x.ts', 'lib/d/self.ts -> lib/d/self.ts']);
    expect(forbiddenImports(sample)).toEqual([
      'lib/b/y.ts -> lib/adapters/db.ts (domain must not import adapters)',
      'lib/wiring/app.ts -> lib/cli/help.ts (wiring must not import cli)',
    ]);
  });
});
