// Why some Kusto operators and evaluate plugins stay refused: their documentation pages neither
// define their result precisely nor print a result over input they also print, so no answer here
// could be checked against Kusto's, and an answer that merely looks right would be a wrong one
// given silently. The refusal (QUERY_UNSUPPORTED at the name) carries the reason.

/** The query connectivity plugins (their pages): each sends a query or request to a service outside Kusto. */
const EXTERNAL =
  'it sends a request to a service outside this one (a database, a web endpoint, Azure Digital Twins), which a query here cannot reach: it reads only the States and Events tables';
const SANDBOX =
  "it runs a script in Kusto's language sandbox, which this service does not have; compute the result with the query's own operators, or on the client";
const AI_MODEL =
  'it calls an AI model endpoint (Azure OpenAI), which a query here cannot reach; call the model from the client with the query result';

const PLUGIN_REASONS: Readonly<Record<string, string>> = {
  azure_digital_twins_query_request: EXTERNAL,
  cosmosdb_sql_request: EXTERNAL,
  http_request: EXTERNAL,
  http_request_post: EXTERNAL,
  mysql_request: EXTERNAL,
  postgresql_request: EXTERNAL,
  sql_request: EXTERNAL,
  python: SANDBOX,
  r: SANDBOX,
  ai_embed_text: AI_MODEL,
  ai_embeddings: AI_MODEL,
  ai_chat_completion: AI_MODEL,
  ai_chat_completion_prompt: AI_MODEL,
  diffpatterns_text:
    'its page does not define how patterns are chosen (its example runs over StormEvents, whose rows the page does not print)',
  session_count:
    "its page does not define how sessions are counted (its example's result is a chart only, and its text's 'timeframe of 100 time slots' and 'look-back window of 41' do not say which sessions a bin counts)",
  basket:
    'its page does not define which frequent patterns are kept or in which order (its examples run over StormEvents, whose rows the page does not print)',
  autocluster:
    'its page does not define how segments are chosen (its examples run over StormEvents, whose rows the page does not print)',
  diffpatterns:
    'its page does not define how patterns are chosen (its examples run over StormEvents, whose rows the page does not print)',
  funnel_sequence:
    'it returns three result tables (for a Sankey diagram), and its examples run over StormEvents, whose rows the page does not print',
  funnel_sequence_completion:
    'its page does not say how steps at the same instant are ordered or whether a step no id reaches gets a row, and prints results only over StormEvents, whose rows it does not print',
  sequence_detect:
    "its page does not define which step rows make an occurrence when several could (its output pairs one 'heat' row with two 'wildfire' rows, and does not say whether steps may share a row or an instant) and prints results only over StormEvents, whose rows it does not print; a join of the steps' rows on the dimensions with a where on their time differences states the rule you want",
  preview:
    'it answers two result tables, which its page defines as `T | take N` and `T | count`; write `T | fork (take N) (count)` to get both from the Kusto protocol routes, or send the two queries',
  schema_merge:
    "its page does not define how column types are reduced to a common one, how the schemas in its input are told apart (a union's rows come in no set order), or the column order without PreserveOrder (its last example lists the second schema's order); compare the getschema outputs yourself, e.g. with a join on ColumnName",
  infer_storage_schema:
    "it reads files in external storage (Azure Blob Storage, Data Lake), which this service has no access to; the schema of this service's tables is what `Table | getschema` returns",
};

const OPERATOR_REASONS: Readonly<Record<string, string>> = {
  reduce: "its page does not describe how values are grouped into patterns (its examples' input is random: rand())",
};

/** The refusal message of an evaluate plugin that is not run here. */
export function refusedPlugin(plugin: string, shown: string): string {
  const reason = PLUGIN_REASONS[plugin];
  return `the '${shown}' plugin is not supported${reason ? `: ${reason}` : ''}`;
}

/** The refusal of `evaluate plugin(...)` as a query's source (no input table), with the plugin's reason if it has one. */
export function refusedEvaluateSource(plugin: string | undefined, shown: string): string {
  const reason = plugin === undefined ? undefined : PLUGIN_REASONS[plugin];
  return `'evaluate' as a tabular source is not supported${reason ? `; nor is the '${shown}' plugin: ${reason}` : ''}`;
}

/** The refusal message of a known Kusto operator that is not run here. */
export function refusedOperator(operator: string): string {
  const reason = OPERATOR_REASONS[operator];
  return `the '${operator}' operator is not supported${reason ? `: ${reason}` : ''}`;
}
