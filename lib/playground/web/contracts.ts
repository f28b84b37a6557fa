// What the playground's browser modules agree on: the query answer as the API sends it, the editor
// the page drives, and the chart drawer. The page (app.ts) composes them; each module is built and
// tested on its own (editor.ts: Monaco + monaco-kusto; charts.ts: the render visualizations).
export type { AnswerColumn, QueryAnswer } from './answer-shape';
import type { QueryAnswer } from './answer-shape';

/** The `render` hint of an answer (`meta.render`): visualization name and its `with (...)` properties. */
export interface RenderHint {
  readonly visualization: string;
  readonly properties: Readonly<Record<string, string>>;
}

/** A column of the schema the page gets from the service (States, Events), for completion and hover. */
export interface SchemaColumn {
  readonly name: string;
  readonly type: string;
  readonly docstring?: string;
}
export interface SchemaTable {
  readonly name: string;
  readonly columns: readonly SchemaColumn[];
  readonly docstring?: string;
}
export interface PlaygroundSchema {
  readonly database: string;
  readonly tables: readonly SchemaTable[];
  /** Names of the functions and aggregations this service compiles (the rest are marked unsupported). */
  readonly functions: readonly string[];
}

/** A server error placed in the editor: 1-based line and column, as `QUERY_SYNTAX` messages give them. */
export interface EditorMarker {
  readonly line: number;
  readonly column: number;
  readonly endColumn?: number;
  readonly message: string;
}

export interface EditorOptions {
  readonly initialText: string;
  readonly schema: PlaygroundSchema;
  /** Ctrl/Cmd+Enter: the text to run (the statement under the cursor, or all when it is one statement). */
  readonly onRun: (text: string) => void;
  readonly ariaLabel: string;
}

export interface EditorHandle {
  getText(): string;
  setText(text: string): void;
  /** The statement under the cursor (statements are separated by blank lines, as in Kusto tools). */
  statementAtCursor(): string;
  setMarkers(markers: readonly EditorMarker[]): void;
  setSchema(schema: PlaygroundSchema): void;
  focus(): void;
}

/** createEditor(el, options) resolves once the editor is usable; the editor module loads lazily. */
export type CreateEditor = (el: HTMLElement, options: EditorOptions) => Promise<EditorHandle>;

/** Draws the answer as its render hint says into el; returns what was drawn (for tests and the page). */
export interface DrawnChart {
  readonly kind: string;
  readonly series: readonly { readonly name: string; readonly points: number }[];
  dispose(): void;
}
export type RenderChart = (el: HTMLElement, answer: QueryAnswer, hint: RenderHint) => DrawnChart;
