import fs from 'node:fs';
import type http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { FakeHttpServers, listenOnLoopback } from './fake-http.js';

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
  private readonly servers = new FakeHttpServers();
  private readonly dirs: string[] = [];

  async start(
    answer: (req: http.IncomingMessage, res: http.ServerResponse, requests: HostRequest[]) => void,
    prefix = '',
  ): Promise<{ url: string; requests: HostRequest[] }> {
    const requests: HostRequest[] = [];
    const server = await listenOnLoopback((req, res) => {
      if (req.method === 'HEAD') return res.end();
      requests.push({ url: req.url!, range: req.headers.range });
      answer(req, res, requests);
    });
    this.servers.track(server);
    return { url: `${server.url}${prefix}`, requests };
  }

  tempDir(prefix = 'reverie-models-'): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    this.dirs.push(dir);
    return dir;
  }

  async closeAll(): Promise<void> {
    await this.servers.closeAll();
    for (const dir of this.dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Every file name below a folder, sorted (`a`, `a/b.txt`). */
export function listing(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true }).map(String).sort();
}
