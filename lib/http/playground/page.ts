/**
 * The playground's HTML. Static: nothing of a request or an answer is ever written into it on the server; the
 * script fills the page with DOM calls (textContent, attributes), never markup. The only difference between
 * deployments is whether the API key field is there.
 */
import { DOCS_BASE } from '../../config.ts';
import { SCRIPT } from './script.ts';
import { STYLE } from './style.ts';

export interface PageOptions {
  /** The deployment checks `x-api-key` (lib/http/api-keys.ts): the form asks for one. */
  readonly keyed: boolean;
  /** Where the MCP endpoint answers (lib/mcp/), which the page points agents to. */
  readonly mcpPath: string;
}

const KEY_FIELD = `
      <fieldset>
        <label>API key <input id="key" type="password" autocomplete="off" spellcheck="false" required placeholder="sent as x-api-key"></label>
      </fieldset>`;

/** The manual's MCP section, beside the error page the payloads' `more` names. */
const MCP_DOCS = `${DOCS_BASE}parameters.md#mcp-ai-agents`;

export const pageHtml = ({ keyed, mcpPath }: PageOptions): string => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Glance playground</title>
<link rel="icon" href="data:,">
<style>${STYLE}</style>
</head>
<body>
<main>
  <h1>Glance playground</h1>
  <p class="lead">Give it a URL; see what the API answers. Programs calling <code>GET /?url=…</code> get the JSON
  directly; this page is only shown to browsers asking for <code>/</code> without a query. AI agents (Claude, Cursor,
  VS Code…) use the same service over the Model Context Protocol at <a id="mcp" href="${mcpPath}"><code>${mcpPath}</code></a>:
  <a href="${MCP_DOCS}" target="_blank" rel="noopener noreferrer">client setup and tools</a>.</p>
  <form id="form" action="" method="get" autocomplete="off">
    <input id="url" name="url" type="url" required placeholder="https://example.com" spellcheck="false">
    <fieldset>
      <legend>Features</legend>
      <label><input id="screenshot" type="checkbox"> screenshot</label>
      <label>overlay
        <select id="overlay">
          <option value="">none</option>
          <option value="light">light browser</option>
          <option value="dark">dark browser</option>
        </select>
      </label>
      <label>background <input id="background" type="text" placeholder="#f0f0f0 or linear-gradient(…)" spellcheck="false"></label>
      <label><input id="pdf" type="checkbox"> pdf</label>
    </fieldset>
    <fieldset>
      <legend>Custom data rule</legend>
      <label>name <input id="rule-name" type="text" placeholder="heading" spellcheck="false"></label>
      <label>selector <input id="rule-selector" type="text" placeholder="h1" spellcheck="false"></label>
      <label>attr <input id="rule-attr" type="text" placeholder="text" spellcheck="false"></label>
    </fieldset>${keyed ? KEY_FIELD : ''}
    <div><button id="submit" class="primary" type="submit">Glance at it</button></div>
  </form>
  <p id="status" role="status" aria-live="polite"></p>
  <section id="result" hidden>
    <div id="preview">
      <h2>Preview</h2>
      <a id="card" class="card" target="_blank" rel="noopener noreferrer"></a>
    </div>
    <div id="media" hidden>
      <h2>Screenshot</h2>
      <img id="shot" alt="Screenshot of the page" hidden>
      <p id="pdf-line" hidden><a id="pdf-link" target="_blank" rel="noopener noreferrer">Open the PDF</a></p>
    </div>
    <h2>Request URL</h2>
    <div class="copy"><input id="request" class="mono" type="text" readonly><button type="button" data-copy="request">Copy</button></div>
    <h2>With <code>@microlink/mql</code></h2>
    <div class="copy"><pre id="snippet"></pre><button type="button" data-copy="snippet">Copy</button></div>
    <h2>JSON answer</h2>
    <pre id="json"></pre>
  </section>
</main>
<script>${SCRIPT}</script>
</body>
</html>
`;
