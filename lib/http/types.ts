import type { Text } from '../text/pieces.ts';

/** The transport-neutral request and response the core speaks; functions/ maps Lambda and node:http onto these. */
export interface ApiRequest {
  /** Upper case, as sent on the wire. */
  readonly method: string;
  /** The query string exactly as received, without the leading `?`. */
  readonly rawQueryString: string;
  /** Header names in any case (the core lower-cases them); a repeated header joined into one value. */
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly requestId: string;
  /** The peer's address as the transport saw it: the local service's socket, which its rate limit counts by. */
  readonly clientAddress?: string;
  /** Epoch ms when the request arrived: the request's one budget starts here (and x-response-time). */
  readonly receivedAt: number;
  /** Epoch ms by which the transport needs the answer (a Lambda invocation's end less a reserve), if it has one. */
  readonly deadline?: number;
  /** `/mcp` for the MCP endpoint (lib/mcp/); the API's own address (`/`) when absent. */
  readonly path?: string;
  /** The request body, as text: read for `/mcp` only (a transport reads at most a little past its bound). */
  readonly body?: string;
}

export interface ApiResponse {
  statusCode: number;
  headers: Record<string, string>;
  /** Text, or binary bytes in base64 when `isBase64Encoded` (API Gateway's own form: the Lambda handler passes
   *  both on as they are, the local service decodes the bytes). A large JSON answer is text in pieces
   *  (lib/text/pieces.ts), sent in order: joined, a 4 MB answer held the local service's event loop ~30 ms. */
  body: Text;
  isBase64Encoded?: boolean;
}
