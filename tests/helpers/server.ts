/**
 * A real HTTP server on 127.0.0.1 for one test file (ky's habit): routes are plain node:http handlers,
 * the server is closed on teardown, and every open socket is destroyed so slow routes cannot hold it open.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';

export type Route = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

export interface TestServer {
  /** `http://127.0.0.1:<port>` (`https:` with `tls`) */
  readonly url: string;
  readonly port: number;
  /** Requests seen, by path (with query), in order. */
  readonly hits: string[];
  route(path: string, handler: Route): void;
  close(): Promise<void>;
}

/** With `tls`, an https server with that key and certificate. */
export async function startServer(routes: Record<string, Route> = {}, tls?: { key: string; cert: string }): Promise<TestServer> {
  const table = new Map(Object.entries(routes));
  const hits: string[] = [];
  const sockets = new Set<Socket>();
  const serve: Route = async (req, res) => {
    hits.push(req.url ?? '');
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const handler = table.get(path);
    if (!handler) {
      res.writeHead(404, { 'content-type': 'text/html' }).end('<title>Not found</title>');
      return;
    }
    try {
      await handler(req, res);
    } catch (error) {
      if (!res.headersSent) res.writeHead(500);
      res.end(String(error));
    }
  };
  // The raw socket under TLS too ('connection'), so close() can cut it.
  const server = tls ? createTlsServer(tls, serve) : createServer(serve);
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    port,
    hits,
    route: (path, handler) => void table.set(path, handler),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A route answering fixed HTML. */
export const html =
  (body: string, headers: Record<string, string> = {}, status = 200): Route =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers }).end(body);
  };

/** A port on 127.0.0.1 nothing listens on (bound, then released): free to listen on, refused to connect to. */
export async function unusedPort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
