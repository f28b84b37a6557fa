// Why the Kusto series functions that stay refused are refused (read by functions-v6-refused.ts):
// each needs a score or a split that its documentation page does not define, and an answer that
// merely looks like Kusto's would be a wrong one given silently.
const DETECT =
  'its score of a candidate period is not defined by its page (the page prints 0.84 for a period of 14 without a formula)';

export const SERIES_REFUSALS: Readonly<Record<string, string>> = {
  series_outliers:
    "its page names Tukey's fences (10th-90th percentiles by default) but not how a point's distance becomes the score, and the scores an earlier page printed match no quantile rule tried",
  series_decompose_anomalies:
    "its ad_score is series_outliers' score of the residual, which no page defines; series_decompose(x, period) gives the baseline and the residual",
  series_periods_detect: DETECT,
  series_periods_validate: DETECT,
  series_fit_2lines:
    "its page prints a chart only and leaves the split's range, the right line's x origin and the combined r-square open; series_fit_line and series_fit_poly are supported",
  series_fit_2lines_dynamic:
    "its page prints a chart only and leaves the split's range, the right line's x origin and the combined r-square open; series_fit_line_dynamic is supported",
};
