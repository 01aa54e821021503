/**
 * `/mcp` as the core serves it: its doors (lib/mcp/doors.ts), then the API's own key check and rate limit, then the
 * SDK's transport (loaded with the first request that gets this far), whose tools ask the API's own path with the
 * request's forwarded target headers and hop count, on its deadline.
 */
import { randomUUID } from 'node:crypto';
import type { Config } from '../config.ts';
import { HOP_HEADER } from '../guard/loop.ts';
import { isForwardedHeader } from '../query/forwarded-headers.ts';
import type { ApiRequest, ApiResponse } from '../http/types.ts';
import type { Storage } from '../storage/index.ts';
import { joined, lengthOf } from '../text/pieces.ts';
import { GlanceError } from '../errors.ts';
import { checkDoors } from './doors.ts';
import type { Payload, ToolDeps } from './tools.ts';

/** The largest API answer a tool takes in, in characters: parsing and writing it again hold the event loop ~10 ms. */
export const MAX_ANSWER_CHARS = 3_000_000;

export interface McpRouteDeps {
  readonly config: Config;
  readonly storage: Storage;
  /** A GET of the API, answered as a tool's query (admitted already, logged as such). */
  query(request: ApiRequest): Promise<ApiResponse>;
  onUnexpectedError(error: unknown, requestId: string): void;
}

/** `admit`: the API's key check and rate limit, once for the whole MCP request. */
export type McpRoute = (request: ApiRequest, admit: (request: ApiRequest) => Promise<void>) => Promise<ApiResponse>;

export function createMcpRoute({ config, storage, query, onUnexpectedError }: McpRouteDeps): McpRoute {
  let endpoint: Promise<typeof import('./endpoint.ts')> | undefined;
  return async (request, admit) => {
    checkDoors(request, config.mcp.origins);
    await admit(request);
    const passed = Object.fromEntries(Object.entries(request.headers).filter(([name]) => isForwardedHeader(name) || name === HOP_HEADER));
    const ask = async (rawQueryString: string): Promise<Payload> => {
      const asked = { method: 'GET', rawQueryString, headers: passed, requestId: randomUUID(), receivedAt: Date.now(), deadline: request.deadline };
      const { body } = await query(asked);
      // Parsed here and written again whole by the SDK, both on the event loop: the answer is bounded first.
      const size = lengthOf(body);
      if (size > MAX_ANSWER_CHARS) {
        throw new GlanceError('ETOOLARGE', `The answer is ${size} characters, over the ${MAX_ANSWER_CHARS} an MCP tool returns: ask for less (a selector, fewer rules), or use the JSON API.`);
      }
      return JSON.parse(joined(body)) as Payload;
    };
    const tools: ToolDeps = { ask, storage, cdnUrl: config.cdnUrl, imageMaxBytes: config.mcp.imageMaxBytes, deadline: request.deadline };
    const { answerMcp } = await (endpoint ??= import('./endpoint.ts'));
    return answerMcp(request, tools, (error) => onUnexpectedError(error, request.requestId));
  };
}
