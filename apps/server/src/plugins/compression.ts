import { promisify } from 'node:util';
import zlib from 'node:zlib';
import fp from 'fastify-plugin';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\b/i;

/** Smaller answers are sent as they are: compressing them saves less than a packet. */
export const COMPRESS_MIN_BYTES = 1024;

type Encoding = 'br' | 'gzip' | null;
/** The answers for the few Accept-Encoding headers browsers send (parsed once each). */
const chosen = new Map<string, Encoding>();
const CHOSEN_KEPT = 200;

/** br when accepted, else gzip, else none (q=0 refuses). */
export function preferredEncoding(header: string | string[] | undefined): Encoding {
  const key = String(header ?? '');
  let encoding = chosen.get(key);
  if (encoding === undefined) {
    encoding = negotiate(key);
    if (key.length <= 256) {
      if (chosen.size >= CHOSEN_KEPT) chosen.clear();
      chosen.set(key, encoding);
    }
  }
  return encoding;
}

function negotiate(header: string): Encoding {
  const accepted = new Map<string, number>();
  for (const part of header.toLowerCase().split(',')) {
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
    // Callback-style: an answer left as it is (already encoded, not JSON, small) costs no promise.
    app.addHook('onSend', (request, reply, payload, done) => {
      if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return done(null, payload);
      if (reply.hasHeader('content-encoding')) return done(null, payload);
      if (!JSON_TYPE.test(String(reply.getHeader('content-type') ?? ''))) return done(null, payload);
      const size = Buffer.byteLength(payload);
      if (size < COMPRESS_MIN_BYTES) return done(null, payload);
      const vary = String(reply.getHeader('vary') ?? '');
      if (!/accept-encoding/i.test(vary)) reply.header('vary', vary ? `${vary}, Accept-Encoding` : 'Accept-Encoding');
      const encoding = preferredEncoding(request.headers['accept-encoding']);
      if (!encoding || request.method === 'HEAD') return done(null, payload);
      const compressed =
        encoding === 'br'
          ? brotli(payload, {
              params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: size },
            })
          : gzip(payload, { level: 6 });
      compressed.then((body) => {
        reply.header('content-encoding', encoding);
        reply.removeHeader('content-length');
        done(null, body);
      }, done);
    });
  },
  { name: 'compression' },
);
