// Questions about an IR relation that the analyzer and the SQL generator both ask.

/**
 * Whether a relation reads a stored table anywhere (its inputs, sub-queries, materialized lets):
 * any node of the tree that is a scan. Rows that come only from the query's text (datatable, print,
 * range) are few and in one order.
 */
export function readsStoredTable(node: unknown): boolean {
  if (typeof node !== 'object' || node === null) return false;
  const known = storedReads.get(node);
  if (known !== undefined) return known;
  // Provisionally false while its children are read (a node met again below is not read twice).
  storedReads.set(node, false);
  const reads =
    ((node as { kind?: unknown }).kind === 'scan' && 'table' in node) || Object.values(node).some(readsStoredTable);
  storedReads.set(node, reads);
  return reads;
}

/**
 * What readsStoredTable found for each node of the IR: every sort, summarize, distinct and join asks
 * about its input, and a node's answer is read once (a 10,000-row datatable under several of them).
 */
const storedReads = new WeakMap<object, boolean>();
