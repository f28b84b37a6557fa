// The query answer as the API sends it, as the browser sees it. Browser code imports nothing from
// the Node side; test/unit/playground/contracts.test.ts checks that this shape stays assignable
// from the service's own type (lib/query-api/answer.ts). No DOM types here, so that test compiles.

export interface AnswerColumn {
  readonly name: string;
  /** KQL type: string, datetime, dynamic, long, int, real, bool, timespan, guid, decimal. */
  readonly columnType: string;
  readonly dataType: string;
}
export interface QueryAnswer {
  readonly data: { readonly columns: readonly AnswerColumn[]; readonly rows: readonly unknown[][] };
  readonly meta: {
    readonly truncated: boolean;
    readonly truncationReason?: 'rowLimit' | 'responseBytes';
    readonly rowLimit: number;
    readonly maxResponseBytes: number;
    readonly render?: unknown;
  };
}
