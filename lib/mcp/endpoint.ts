/**
 * `POST /mcp` past its doors (lib/mcp/doors.ts): the SDK's Streamable HTTP transport in its web-standard form, so the
 * local service and the Lambda handler share it through the core's ApiRequest. Stateless (no session id: any
 * instance answers any request, each Lambda invocation stands alone) and JSON answers (no stream: an answer is one
 * body, as API Gateway returns it). A transport and a server per request, as the SDK requires of stateless ones.
 */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { ApiRequest, ApiResponse } from '../http/types.ts';
import { MAX_BODY_BYTES, MCP_PATH } from './doors.ts';
import { createServer } from './server.ts';
import type { ToolDeps } from './tools.ts';

/** Headers as the Fetch API takes them: values given. */
function fetchHeaders(headers: ApiRequest['headers']): Headers {
  const fetched = new Headers();
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) fetched.append(name, value);
  return fetched;
}

export async function answerMcp(request: ApiRequest, deps: ToolDeps, onUnexpectedError: (error: unknown) => void): Promise<ApiResponse> {
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
    maxRequestBodySize: MAX_BODY_BYTES,
  });
  const server = createServer(deps, onUnexpectedError);
  await server.connect(transport);
  try {
    // The address is only the transport's to report to handlers, which do not read it.
    const web = new Request(`http://localhost${MCP_PATH}`, {
      method: request.method,
      headers: fetchHeaders(request.headers),
      body: request.body ?? '',
    });
    const response = await transport.handleRequest(web);
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => (headers[name] = value));
    return { statusCode: response.status, headers, body: await response.text() };
  } finally {
    await server.close();
  }
}
