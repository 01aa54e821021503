/** The transport-neutral request and response the core speaks; functions/ maps Lambda and node:http onto these. */
export interface ApiRequest {
  readonly method: string;
  /** The query string exactly as received, without the leading `?`. */
  readonly rawQueryString: string;
  /** Lower-case header names. */
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly requestId: string;
  /** Epoch ms when the request arrived: the request's one budget starts here (and x-response-time). */
  readonly receivedAt: number;
  /** Epoch ms by which the transport needs the answer (a Lambda invocation's end less a reserve), if it has one. */
  readonly deadline?: number;
}

export interface ApiResponse {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}
