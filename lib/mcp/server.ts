/**
 * The MCP server of one request: the low-level `Server` of the official SDK (its `McpServer` takes Zod schemas,
 * and the tools' schemas are JSON Schema derived from docs/openapi.json, lib/mcp/schemas.ts). Arguments are checked
 * against those schemas here, with the SDK's own validator; what they then hold is checked by the query parser.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import document from '../http/openapi-document.cts';
import { GlanceError } from '../errors.ts';
import { isFatal } from '../http/fault.ts';
import { AnsweredError, TOOLS, toolError, type GlanceTool, type ToolDeps } from './tools.ts';

const INSTRUCTIONS =
  'Glance reads public web pages for you: `markdown` for a page\'s text, `extract` for its metadata and custom data, ' +
  '`screenshot` for how it looks. A tool error carries Glance\'s code (EFETCH, ETIMEOUT, EFORBIDDENURL…) and message.';

const validator = new AjvJsonSchemaValidator();
/** Compiled once per process: every request builds its server afresh, with the same tools. */
const checks = new Map(TOOLS.map((tool) => [tool.name, validator.getValidator<Record<string, unknown>>(tool.inputSchema)]));

/** The listing of a tool: what the protocol describes, without its `run`. */
const listed = ({ run: _run, ...tool }: GlanceTool) => tool;

async function call(tool: GlanceTool, args: unknown, deps: ToolDeps, onUnexpectedError: (error: unknown) => void): Promise<CallToolResult> {
  const checked = checks.get(tool.name)!(args ?? {});
  if (!checked.valid) return toolError(new GlanceError('EINVALQUERY', `The arguments of \`${tool.name}\` are invalid: ${checked.errorMessage}.`));
  try {
    return await tool.run(checked.data, deps);
  } catch (error) {
    if (isFatal(error) && !(error instanceof AnsweredError)) onUnexpectedError(error);
    return toolError(error);
  }
}

export function createServer(deps: ToolDeps, onUnexpectedError: (error: unknown) => void): Server {
  const server = new Server(
    { name: 'glance', title: 'Glance', version: document.info.version },
    { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: TOOLS.map(listed) }));
  server.setRequestHandler(CallToolRequestSchema, async ({ params }) => {
    const tool = TOOLS.find((candidate) => candidate.name === params.name);
    // An unknown tool is the protocol's error, not a tool's (MCP, Server Features → Tools → Error Handling).
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${params.name}`);
    return call(tool, params.arguments, deps, onUnexpectedError);
  });
  return server;
}
