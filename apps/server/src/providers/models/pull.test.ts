import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { listing, ModelHosts } from '../../../test/model-host.js';
import { PullError, pullFiles, pulled, type ModelFile } from './pull.js';

const hosts = new ModelHosts();
afterEach(() => hosts.closeAll());

/** Serves `files` with Range support; `hook` may answer a request itself (returning true). */
function modelHost(
  files: Record<string, Buffer>,
  hook?: (req: http.IncomingMessage, res: http.ServerResponse) => boolean,
) {
  return hosts.start((req, res) => {
    if (hook?.(req, res)) return;
    const body = files[req.url!.slice(1)];
    if (!body) {
      res.writeHead(404);
      return res.end('not found');
    }
    const range = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
    if (range) {
      const from = Number(range[1]);
      res.writeHead(206, {
        'content-length': body.length - from,
        'content-range': `bytes ${from}-${body.length - 1}/${body.length}`,
      });
      return res.end(body.subarray(from));
    }
    res.writeHead(200, { 'content-length': body.length });
    res.end(body);
  });
}
const tempDir = () => hosts.tempDir('reverie-pull-');
const bytes = (n: number, seed: number) => Buffer.from(Array.from({ length: n }, (_, i) => (i * seed + 7) & 0xff));

describe('pullFiles', () => {
  it('downloads every file with progress up to 100 % and renames each into place only when whole', async () => {
    const encoder = bytes(300_000, 3);
    const tokens = bytes(2_000, 5);
    const host = await modelHost({ 'enc.onnx': encoder, 'tokens.txt': tokens });
    const dir = tempDir();
    const files: ModelFile[] = [
      {
        url: `${host.url}/enc.onnx`,
        name: 'enc.onnx',
        size: encoder.length,
        sha256: createHash('sha256').update(encoder).digest('hex'),
      },
      { url: `${host.url}/tokens.txt`, name: 'data/tokens.txt', size: tokens.length },
    ];
    const progress: number[] = [];
    const seenDuring: string[][] = [];
    const paths = await pullFiles(dir, files, {
      onProgress: (fraction) => {
        if (fraction !== null) progress.push(fraction);
        seenDuring.push(listing(dir));
      },
    });
    expect(paths).toEqual([path.join(dir, 'enc.onnx'), path.join(dir, 'data/tokens.txt')]);
    expect(fs.readFileSync(paths[0]!).equals(encoder)).toBe(true);
    expect(fs.readFileSync(paths[1]!).equals(tokens)).toBe(true);
    expect(progress[0]).toBe(0);
    expect(progress.at(-1)).toBe(1);
    expect(progress.some((p) => p > 0 && p < 1)).toBe(true);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    // While the encoder streamed in, it existed only as a temporary file.
    expect(seenDuring.some((names) => names.some((n) => n.endsWith('.part')) && !names.includes('enc.onnx'))).toBe(
      true,
    );
    expect(listing(dir)).toEqual(['data', 'data/tokens.txt', 'enc.onnx']);
    expect(pulled(dir, files)).toBe(true);

    // Pulled already: no request at all.
    const before = host.requests.length;
    await pullFiles(dir, files);
    expect(host.requests.length).toBe(before);
  });

  it('resumes a transfer that broke off where it stopped', async () => {
    const model = bytes(200_000, 11);
    const host = await modelHost({ 'model.onnx': model }, (req, res) => {
      if (req.headers.range) return false;
      // The first GET sends half the file and drops the connection.
      res.writeHead(200, { 'content-length': model.length });
      res.write(model.subarray(0, 100_000), () => setTimeout(() => res.destroy(), 20));
      return true;
    });
    const dir = tempDir();
    const [file] = await pullFiles(dir, [{ url: `${host.url}/model.onnx`, name: 'model.onnx' }], { retryDelayMs: 10 });
    expect(fs.readFileSync(file!).equals(model)).toBe(true);
    expect(host.requests).toHaveLength(2);
    expect(host.requests[1]!.range).toBe('bytes=100000-');
    expect(listing(dir)).toEqual(['model.onnx']);
  });

  it('leaves no partial file when a download fails, and does not ask again for a 404', async () => {
    const host = await modelHost({ 'ok.onnx': bytes(5_000, 2) });
    const dir = tempDir();
    const failure = await pullFiles(
      dir,
      [
        { url: `${host.url}/ok.onnx`, name: 'ok.onnx' },
        { url: `${host.url}/missing.onnx`, name: 'missing.onnx' },
      ],
      { retryDelayMs: 10 },
    ).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(PullError);
    expect((failure as Error).message).toMatch(/missing\.onnx.*404/);
    expect(host.requests.filter((r) => r.url === '/missing.onnx')).toHaveLength(1);
    expect(listing(dir)).toEqual(['ok.onnx']);
  });

  it('refuses a file whose size or SHA-256 differs, keeping nothing of it', async () => {
    const host = await modelHost({ 'a.onnx': bytes(1_000, 3) });
    const dir = tempDir();
    await expect(
      pullFiles(dir, [{ url: `${host.url}/a.onnx`, name: 'a.onnx', sha256: '0'.repeat(64) }]),
    ).rejects.toThrow(/SHA-256/);
    await expect(pullFiles(dir, [{ url: `${host.url}/a.onnx`, name: 'a.onnx', size: 999 }])).rejects.toThrow(
      /1000 bytes, expected 999/,
    );
    expect(listing(dir)).toEqual([]);
  });

  it('fails in moments, not minutes, when the host cannot be reached', async () => {
    const dir = tempDir();
    const started = performance.now();
    await expect(pullFiles(dir, [{ url: 'http://127.0.0.1:9/x.onnx', name: 'x.onnx' }])).rejects.toThrow(
      /cannot reach http:\/\/127\.0\.0\.1:9\//,
    );
    expect(performance.now() - started).toBeLessThan(3000);
    expect(listing(dir)).toEqual([]);
  });

  it('refuses names that climb out of the folder', async () => {
    await expect(pullFiles(tempDir(), [{ url: 'http://127.0.0.1:9/x', name: '../x' }])).rejects.toThrow(PullError);
  });
});
