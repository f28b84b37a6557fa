// The order in which vitest hands test files to its workers (vitest.config.ts `sequence.sequencer`).
// vitest's own order runs the projects one after the other by name, so the unit files ran last and
// the long integration files wherever their project's name put them. Here, within each group
// (`sequence.groupOrder`), the longest files start first and the many short unit files come last,
// where they fill the workers while the long ones end: the run ends when its longest chain does.
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Files that take longest from their first line to their last (measured in a whole run, JSON
 * reporter), longest first. Each starts engines of its own (npm start, chromium, a stack), except
 * the HTTP conformance run (44 s of 1,481 queries on the shared stack): it started at 102 s of a
 * 188 s run (2026-11-26, three workers, fresh clone) behind the short files, and the run's tail
 * waited on it; from here it waits for the shared stack instead, which is up by then or soon after.
 */
const longest = [
  'test/integration/npm-start.test.ts',
  'test/integration/playground-editor.test.ts',
  'test/integration/ingest-conservation.test.ts',
  'test/integration/query-conformance-http.test.ts',
  'test/integration/package.test.ts',
  'test/integration/playground-charts.test.ts',
];

/**
 * Then by project, in this order. Files on the shared stack come after the files that need only
 * DynamoDB or nothing: the stack starts in the background and is up by then.
 */
const projects = ['integration', 'integration-browser', 'integration-stack', 'unit-isolated', 'unit'];

function rank(spec: TestSpecification, root: string): number {
  const index = longest.indexOf(path.relative(root, spec.moduleId));
  if (index >= 0) return index;
  const project = projects.indexOf(spec.project.name);
  return longest.length + (project >= 0 ? project : projects.length);
}

export class RunOrder extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    // vitest's order (group, project, then longest or largest first) breaks the ties.
    const base = await super.sort(files);
    const root = this.ctx.config.root;
    const order = new Map(base.map((spec, i) => [spec, i]));
    const group = (spec: TestSpecification): number => spec.project.config.sequence.groupOrder;
    return [...base].sort(
      (a, b) => group(a) - group(b) || rank(a, root) - rank(b, root) || (order.get(a) ?? 0) - (order.get(b) ?? 0),
    );
  }
}
