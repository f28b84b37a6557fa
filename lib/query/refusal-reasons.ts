// Why some Kusto operators and evaluate plugins stay refused: their documentation pages neither
// define their result precisely nor print a result over input they also print, so no answer here
// could be checked against Kusto's, and an answer that merely looks right would be a wrong one
// given silently. The refusal (QUERY_UNSUPPORTED at the name) carries the reason.

const PLUGIN_REASONS: Readonly<Record<string, string>> = {
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
};

const OPERATOR_REASONS: Readonly<Record<string, string>> = {
  reduce: "its page does not describe how values are grouped into patterns (its examples' input is random: rand())",
};

/** The refusal message of an evaluate plugin that is not run here. */
export function refusedPlugin(plugin: string, shown: string): string {
  const reason = PLUGIN_REASONS[plugin];
  return `the '${shown}' plugin is not supported${reason ? `: ${reason}` : ''}`;
}

/** The refusal message of a known Kusto operator that is not run here. */
export function refusedOperator(operator: string): string {
  const reason = OPERATOR_REASONS[operator];
  return `the '${operator}' operator is not supported${reason ? `: ${reason}` : ''}`;
}
