/** Pages the MCP tests read, on 127.0.0.1 (tests/helpers/server.ts), and the SDK's client to read them with. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, type StreamableHTTPClientTransportOptions } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { html, startServer, type Route, type TestServer } from '../helpers/server.ts';

export const PARAGRAPH = 'Every paragraph of this long page says the same thing again, at some length, until the cap. ';

/** A page that answers nothing until its connection is gone. */
const never: Route = (_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).write('<title>');

export function startPages(): Promise<TestServer> {
  return startServer({
    '/article': html(
      '<!doctype html><html lang="en"><title>The article</title><meta name="description" content="What it says.">' +
        '<body><nav>Home · About</nav><main><h1>The article</h1><p class="lead">First words.</p><ul><li>One</li><li>Two</li></ul></main></body></html>',
    ),
    '/long': html(`<!doctype html><title>Long</title><main>${Array.from({ length: 400 }, (_, i) => `<p>${i}. ${PARAGRAPH}</p>`).join('')}</main>`),
    // Noise compresses worst of all: its capture is megabytes of PNG.
    '/noise': html(
      '<!doctype html><title>Noise</title><body style="margin:0"><canvas id="c" width="640" height="400"></canvas><script>' +
        'const c = document.getElementById("c").getContext("2d"); const d = c.createImageData(640, 400);' +
        'for (let i = 0; i < d.data.length; i++) d.data[i] = i % 4 === 3 ? 255 : Math.random() * 256; c.putImageData(d, 0, 0);</script>',
    ),
    // A page that sends its reader to the cloud's metadata address.
    '/hostile': (_req, res) => void res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end(),
    '/never': never,
  });
}

export async function connect(url: string, options: StreamableHTTPClientTransportOptions = {}): Promise<Client> {
  const client = new Client({ name: 'glance-tests', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), options));
  return client;
}

/** A tool's first text content. */
export const textOf = (result: CallToolResult): string => {
  const first = result.content.find((content) => content.type === 'text');
  return first?.type === 'text' ? first.text : '';
};

export const call = async (client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> =>
  (await client.callTool({ name, arguments: args })) as CallToolResult;
