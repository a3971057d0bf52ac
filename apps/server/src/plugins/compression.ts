import { promisify } from 'node:util';
import zlib from 'node:zlib';
import fp from 'fastify-plugin';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Smaller answers are sent as they are: compressing them saves less than a packet. */
export const COMPRESS_MIN_BYTES = 1024;

/** br when accepted, else gzip, else none (q=0 refuses). */
export function preferredEncoding(header: string | string[] | undefined): 'br' | 'gzip' | null {
  const accepted = new Map<string, number>();
  for (const part of String(header ?? '')
    .toLowerCase()
    .split(',')) {
    const [name, ...params] = part.trim().split(';');
    if (!name) continue;
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
    accepted.set(name.trim(), q === undefined ? 1 : Number(q));
  }
  const ok = (name: string) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  return ok('br') ? 'br' : ok('gzip') ? 'gzip' : null;
}

/**
 * Compresses JSON answers of 1 kB and more (the catalogue's first page is ≈ 21 kB of JSON,
 * ≈ 4 kB compressed) with brotli, else gzip, as the client accepts; `Vary: Accept-Encoding`.
 * Only whole JSON payloads: event streams, media files and pages (compressed by the web module
 * or precompressed at build) are left alone. Quick settings: answers are made per request.
 */
export const compressionPlugin = fp(
  async (app) => {
    app.addHook('onSend', async (request, reply, payload) => {
      if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
      if (reply.hasHeader('content-encoding')) return payload;
      if (!/^application\/(?:[\w.+-]+\+)?json\b/i.test(String(reply.getHeader('content-type') ?? ''))) return payload;
      const size = Buffer.byteLength(payload);
      if (size < COMPRESS_MIN_BYTES) return payload;
      const vary = String(reply.getHeader('vary') ?? '');
      if (!/accept-encoding/i.test(vary)) reply.header('vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding');
      const encoding = preferredEncoding(request.headers['accept-encoding']);
      if (!encoding || request.method === 'HEAD') return payload;
      const compressed =
        encoding === 'br'
          ? await brotli(payload, {
              params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: size },
            })
          : await gzip(payload, { level: 6 });
      reply.header('content-encoding', encoding);
      reply.removeHeader('content-length');
      return compressed;
    });
  },
  { name: 'compression' },
);
