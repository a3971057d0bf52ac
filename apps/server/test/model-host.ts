import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** A request a model host received (HEAD probes are answered and not recorded). */
export interface HostRequest {
  url: string;
  range?: string;
}

/**
 * Model hosts on the loopback for the tests of pulled models (providers/models, the local STT
 * and voice): each answers HEAD (the downloader's probe) with 200 and hands every other
 * request to `answer`; `closeAll()` (in afterEach) stops them and removes the temporary
 * folders made with `tempDir()`.
 */
export class ModelHosts {
  private readonly servers: http.Server[] = [];
  private readonly dirs: string[] = [];

  async start(
    answer: (req: http.IncomingMessage, res: http.ServerResponse, requests: HostRequest[]) => void,
    prefix = '',
  ): Promise<{ url: string; requests: HostRequest[] }> {
    const requests: HostRequest[] = [];
    const server = http.createServer((req, res) => {
      if (req.method === 'HEAD') return res.end();
      requests.push({ url: req.url!, range: req.headers.range });
      answer(req, res, requests);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.servers.push(server);
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${prefix}`, requests };
  }

  tempDir(prefix = 'reverie-models-'): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    this.dirs.push(dir);
    return dir;
  }

  async closeAll(): Promise<void> {
    await Promise.all(
      this.servers.splice(0).map((server) => {
        server.closeAllConnections();
        return new Promise((resolve) => server.close(resolve));
      }),
    );
    for (const dir of this.dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Every file name below a folder, sorted (`a`, `a/b.txt`). */
export function listing(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true }).map(String).sort();
}
