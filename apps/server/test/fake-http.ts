import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Fake HTTP services on the loopback for the provider tests (and the protocol fakes built on
 * them: fake-openai.ts, fake-comfyui.ts, model-host.ts). Plain node:http, no test-runner
 * imports: the browser journeys' global setup starts fake-openai.ts too.
 */

/** A server listening on the loopback. */
export interface Listening {
  server: http.Server;
  port: number;
  /** `http://127.0.0.1:<port>`. */
  url: string;
  /** Stops the server; open connections (a request left hanging on purpose) are dropped first. */
  close(): Promise<void>;
}

/** Listens with `listener` on a free port of the loopback (or on `port`). */
export async function listenOnLoopback(listener?: http.RequestListener, port = 0): Promise<Listening> {
  const server = http.createServer(listener);
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const bound = (server.address() as AddressInfo).port;
  return {
    server,
    port: bound,
    url: `http://127.0.0.1:${bound}`,
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A loopback port nothing listens on (free a moment ago): a connection is refused, a server may take it. */
export async function freePort(): Promise<number> {
  const { port, close } = await listenOnLoopback();
  await close();
  return port;
}

/** A request's body, read whole. */
export function readBody(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** A request a fake received, its body read whole. */
export interface FakeRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  raw: Buffer;
  /** The body as UTF-8 text. */
  body: string;
}

/** A fake service and every request it received, oldest first. */
export interface FakeHttp extends Listening {
  seen: FakeRequest[];
}

/** Starts a fake service: each request is read whole, recorded in `seen`, then answered by `handle`. */
export async function startFakeHttp(
  handle: (req: FakeRequest, res: http.ServerResponse) => unknown,
  port = 0,
): Promise<FakeHttp> {
  const seen: FakeRequest[] = [];
  const listening = await listenOnLoopback(async (req, res) => {
    const raw = await readBody(req);
    const entry = { method: req.method!, url: req.url!, headers: req.headers, raw, body: raw.toString() };
    seen.push(entry);
    await handle(entry, res);
  }, port);
  return { ...listening, seen };
}

/** Answers `body` as JSON. */
export function sendJson(
  res: http.ServerResponse,
  body: unknown,
  status = 200,
  headers: http.OutgoingHttpHeaders = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** The fakes one test file starts, stopped together: `afterEach(() => fakes.closeAll())`. */
export class FakeHttpServers {
  private readonly started: Listening[] = [];

  /** Starts a fake (see `startFakeHttp`) that `closeAll()` stops. */
  async start(handle: (req: FakeRequest, res: http.ServerResponse) => unknown): Promise<FakeHttp> {
    return this.track(await startFakeHttp(handle));
  }

  /** Lets `closeAll()` stop a server started some other way. */
  track<T extends Listening>(listening: T): T {
    this.started.push(listening);
    return listening;
  }

  async closeAll(): Promise<void> {
    await Promise.all(this.started.splice(0).map((listening) => listening.close()));
  }
}
