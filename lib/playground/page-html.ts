// The playground's HTML: the page's skeleton (so labels, landmarks and tab order exist before any
// script runs), no inline script or style, and the Content-Security-Policy it is served with.
// Addresses are relative to /insights/v1/telemetry/playground, so the page works under any prefix.

/**
 * Scripts, workers, fonts and requests only from this origin; no inline or evaluated script.
 * Styles allow 'unsafe-inline' because Monaco writes its theme and decorations into <style>
 * elements at run time (no script can be injected through a style).
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "worker-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "font-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const escapeAttribute = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The page, loading app.js as a module and every stylesheet the build made. */
export function playgroundHtml(stylesheets: readonly string[]): string {
  const links = stylesheets
    .map((file) => `<link rel="stylesheet" href="playground/${escapeAttribute(file)}">`)
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>KQL playground · Industrial insights</title>
${links}
<script type="module" src="playground/app.js"></script>
</head>
<body>
<a class="skip" href="#query-editor">Skip to the query editor</a>
<header class="bar">
  <h1>KQL playground</h1>
  <p id="status" class="status" role="status" aria-live="polite">Sign in with a query client to start.</p>
  <button id="sign-out" type="button" hidden>Sign out</button>
</header>
<main id="app">
  <form id="sign-in" class="sign-in" autocomplete="off">
    <h2>Sign in</h2>
    <p>Use a query client's id and secret (<code>npm start</code> prints the demo client's). The secret is sent once to the token endpoint and never stored; the token lives in this page's memory only.</p>
    <label for="client-id">Client id</label>
    <input id="client-id" name="client-id" required spellcheck="false" autocapitalize="off">
    <label for="client-secret">Client secret</label>
    <input id="client-secret" name="client-secret" type="password" required spellcheck="false">
    <button type="submit">Sign in</button>
    <p id="sign-in-error" class="error" role="alert"></p>
  </form>
  <section id="workspace" class="workspace" hidden aria-label="Query workspace">
    <div class="controls">
      <label for="window">Time window</label>
      <select id="window">
        <option value="1h">Last hour</option>
        <option value="24h" selected>Last 24 hours</option>
        <option value="7d">Last 7 days</option>
        <option value="custom">Custom…</option>
      </select>
      <span id="custom-window" class="custom-window" hidden>
        <label for="window-start">From (UTC)</label>
        <input id="window-start" type="datetime-local" step="1">
        <label for="window-end">To (UTC)</label>
        <input id="window-end" type="datetime-local" step="1">
      </span>
      <fieldset id="plants" class="plants"><legend>Plants</legend></fieldset>
      <button id="run" type="button" class="primary" aria-keyshortcuts="Control+Enter Meta+Enter">Run <kbd>Ctrl+Enter</kbd></button>
    </div>
    <div id="query-editor" class="editor" tabindex="-1" aria-label="Query editor"></div>
    <div class="tabs" role="tablist" aria-label="Result views">
      <button id="tab-results" role="tab" type="button" aria-selected="true" aria-controls="panel-results">Results</button>
      <button id="tab-chart" role="tab" type="button" aria-selected="false" aria-controls="panel-chart" tabindex="-1">Chart</button>
      <button id="tab-explain" role="tab" type="button" aria-selected="false" aria-controls="panel-explain" tabindex="-1">Explain</button>
    </div>
    <section id="panel-results" role="tabpanel" aria-labelledby="tab-results" class="panel">
      <div class="result-bar">
        <p id="result-summary" class="summary"></p>
        <button id="copy-csv" type="button" disabled>Copy CSV</button>
        <button id="copy-json" type="button" disabled>Copy JSON</button>
      </div>
      <p id="truncated" class="notice" hidden></p>
      <p id="query-error" class="error" role="alert"></p>
      <div id="grid" class="grid" tabindex="0" aria-label="Result rows"></div>
    </section>
    <section id="panel-chart" role="tabpanel" aria-labelledby="tab-chart" class="panel" hidden>
      <div id="chart" class="chart" data-chart-kind="" data-chart-series="[]"></div>
    </section>
    <section id="panel-explain" role="tabpanel" aria-labelledby="tab-explain" class="panel" hidden>
      <pre id="explain" class="explain" tabindex="0" aria-label="Generated SQL"></pre>
    </section>
  </section>
</main>
</body>
</html>
`;
}
