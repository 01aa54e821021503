/** Routes serving bytes the way real media servers do (Range or not), and the deps every ping test uses. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AddressPolicy } from '../../lib/guard/policy.ts';
import type { PingDeps } from '../../lib/ping/index.ts';
import type { Route } from '../helpers/server.ts';

export const USER_AGENT = 'GlanceTest/1.0 (like Chrome)';
export const localPolicy = AddressPolicy.fromSetting('127.0.0.1');
export const deps = (overrides: Partial<PingDeps> = {}): PingDeps => ({ policy: localPolicy, userAgent: USER_AGENT, ...overrides });

export interface ServeOptions {
  contentType?: string;
  /** Answer Range requests with 206 (default true). */
  ranges?: boolean;
  /** Send no content-length (chunked), as dynamic handlers do. */
  chunked?: boolean;
  /** Delay before the headers, in ms. */
  delayMs?: number;
  /** Status other than 200 for a whole-file answer. */
  status?: number;
  /** Record each request's Range header here. */
  ranged?: Array<string | undefined>;
}

/** One `bytes=a-b`, `bytes=a-` or `bytes=-n` range (RFC 9110 §14.1.2), clamped to the file. */
function parseRange(header: string, size: number): { start: number; end: number } | 'unsatisfiable' | undefined {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  const [from, to] = [match[1]!, match[2]!];
  const start = from === '' ? Math.max(0, size - Number(to)) : Number(from);
  const end = from === '' || to === '' ? size - 1 : Math.min(Number(to), size - 1);
  return start >= size || start > end ? 'unsatisfiable' : { start, end };
}

export const serve =
  (body: Buffer, options: ServeOptions = {}): Route =>
  async (req: IncomingMessage, res: ServerResponse) => {
    options.ranged?.push(req.headers.range);
    if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
    const headers: Record<string, string | number> = {};
    if (options.contentType) headers['content-type'] = options.contentType;
    const range = options.ranges !== false && req.headers.range ? parseRange(req.headers.range, body.length) : undefined;
    if (range === 'unsatisfiable') {
      res.writeHead(416, { 'content-range': `bytes */${body.length}` }).end();
      return;
    }
    if (range) {
      const part = body.subarray(range.start, range.end + 1);
      res.writeHead(206, { ...headers, 'content-range': `bytes ${range.start}-${range.end}/${body.length}`, 'content-length': part.length });
      res.end(req.method === 'HEAD' ? undefined : part);
      return;
    }
    if (!options.chunked) headers['content-length'] = body.length;
    res.writeHead(options.status ?? 200, headers);
    res.end(req.method === 'HEAD' ? undefined : body);
  };

/** A server that ignores Range and streams `megabytes` of a file that starts with `head`; counts bytes written. */
export function endless(head: Buffer, megabytes: number, contentType: string): Route & { written: () => number } {
  let written = 0;
  const route = (_req: IncomingMessage, res: ServerResponse): void => {
    const total = megabytes * 1024 * 1024;
    let sent = 0;
    res.writeHead(200, { 'content-type': contentType, 'content-length': total });
    const block = Buffer.alloc(64 * 1024);
    const pump = (): void => {
      while (sent < total) {
        const piece = sent === 0 ? Buffer.concat([head, block.subarray(head.length)]) : block;
        sent += piece.length;
        written += piece.length;
        if (!res.write(piece)) return void res.once('drain', pump);
      }
      res.end();
    };
    res.on('close', () => res.removeAllListeners('drain'));
    pump();
  };
  return Object.assign(route, { written: () => written });
}
