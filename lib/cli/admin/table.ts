// Plain-text tables of the admin CLI: a header of column names, columns padded to their widest cell.

export function table(rows: ReadonlyArray<Readonly<Record<string, unknown>>>, columns: readonly string[]): string {
  if (rows.length === 0) return '(none)\n';
  const cells = rows.map((r) =>
    columns.map((c) =>
      r[c] === undefined || r[c] === null ? '' : Array.isArray(r[c]) ? (r[c] as unknown[]).join(',') : String(r[c]),
    ),
  );
  const widths = columns.map((c, i) => Math.max(c.length, ...cells.map((row) => row[i]?.length ?? 0)));
  const line = (values: readonly string[]) =>
    values
      .map((v, i) => v.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return `${[line(columns), ...cells.map(line)].join('\n')}\n`;
}
