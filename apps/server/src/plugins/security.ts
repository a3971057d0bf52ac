import type { ServerResponse } from 'node:http';
import cors from '@fastify/cors';
import rateLimit, { type FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';
import { AppError } from '../lib/errors.js';
import {
  MemoryWindowCounter,
  globalLimitKey,
  type WindowCount,
  type WindowCounter,
} from '../providers/limits/index.js';

export interface SecurityOptions {
  /** Origins (besides our own) that may call the API from a browser. */
  webOrigins: string[];
  ratePerMinute: number;
  /** Third-party script origins the operator enabled (the affiliate tracker). */
  scriptOrigins?: string[];
  /**
   * Strict-Transport-Security (one year, subdomains included): on when the site is served
   * over https (PUBLIC_URL), never over plain http, where browsers would ignore it anyway and
   * a local install must stay reachable.
   */
  hsts?: boolean;
  /**
   * Where every `@fastify/rate-limit` limit counts (the global one, each route's
   * `config.rateLimit`, `app.createRateLimit`): the cluster's shared counters
   * (providers/limits). Without it, each process counts on its own.
   */
  store?: FastifyRateLimitStoreCtor;
  /**
   * The counter of the global per-address limit (a `BatchedWindowCounter` on the shared one:
   * hit by every API request). In process when not given.
   */
  globalCounter?: WindowCounter;
}

/**
 * The headers helmet sets for `options`, worked out once: helmet's answer does not depend on the
 * request (no nonces), so every response gets the same list — set in the first hook, on the raw
 * response (as helmet does, so that hijacked answers carry them too), without building helmet's
 * middleware and parsing its policy for each request.
 */
export function helmetHeaders(options: HelmetOptions): { set: [string, string][]; removed: string[] } {
  const set: [string, string][] = [];
  const removed: string[] = [];
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      set.push([name, String(value)]);
      return recorder;
    },
    removeHeader: (name: string) => {
      removed.push(name);
    },
  };
  let error: unknown;
  helmet(options)(
    {} as Parameters<ReturnType<typeof helmet>>[0],
    recorder as unknown as ServerResponse,
    (err?: unknown) => (error = err),
  );
  if (error) throw error;
  return { set, removed };
}

/** Static files and probes are not rate limited; the API is. */
const limited = (url: string) => url.startsWith('/api/') && !url.startsWith('/api/health');

/**
 * Security headers, CORS for a separately hosted web app, and a global per-IP rate limit
 * (counted once for the cluster when a shared `store` is given).
 */
export const securityPlugin = fp<SecurityOptions>(
  async (app, options) => {
    const headers = helmetHeaders({
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'", ...(options.scriptOrigins ?? [])],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'blob:'],
          mediaSrc: ["'self'", 'blob:', 'data:'],
          connectSrc: ["'self'", ...options.webOrigins, ...(options.scriptOrigins ?? [])],
          fontSrc: ["'self'", 'data:'],
          objectSrc: ["'none'"],
          frameAncestors: ["'none'"],
          baseUri: ["'self'"],
          formAction: ["'self'"],
          upgradeInsecureRequests: null,
        },
      },
      // The API is called cross-origin by the separately hosted web app.
      crossOriginResourcePolicy: { policy: options.webOrigins.length ? 'cross-origin' : 'same-origin' },
      strictTransportSecurity: options.hsts ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    });
    app.addHook('onRequest', (_request, reply, done) => {
      const raw = reply.raw;
      for (const name of headers.removed) raw.removeHeader(name);
      for (const [name, value] of headers.set) raw.setHeader(name, value);
      done();
    });

    await app.register(cors, {
      origin: options.webOrigins.length ? options.webOrigins : false,
      methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
      allowedHeaders: ['Authorization', 'Content-Type', 'Accept-Language', 'Accept'],
      exposedHeaders: ['Retry-After'],
      maxAge: 600,
    });

    // The global per-address limit answers 429 first, in the first onRequest hook after the
    // request's context: before authentication (no session read), body parsing, validation or
    // any route's work — a client over its budget costs one in-process count (batched to the
    // shared counter) and nothing else.
    const counter = options.globalCounter ?? new MemoryWindowCounter();
    const overLimit = ({ count, ttlMs }: WindowCount) =>
      count > options.ratePerMinute
        ? new AppError('rate_limited', {
            status: 429,
            headers: { 'retry-after': String(Math.max(1, Math.ceil(ttlMs / 1000))) },
          })
        : undefined;
    // Callback-style: a count this process can answer at once (in process, or batched and heard
    // recently) passes without a promise.
    app.addHook('onRequest', (request, _reply, done) => {
      // A route with a limit of its own (`config.rateLimit`) counts on that one instead, as before;
      // one that counts the global limit itself (`rateLimit: false`, `deferredGlobalLimit`) too.
      if (!limited(request.url) || (request.routeOptions.config as { rateLimit?: unknown }).rateLimit !== undefined)
        return done();
      const key = globalLimitKey(request.ip);
      const now = counter.hitNow?.(key, 60_000);
      if (now) return done(overLimit(now));
      counter.hit(key, 60_000).then((counted) => done(overLimit(counted)), done);
    });

    // Each route's own `config.rateLimit` and `app.createRateLimit` (on the shared store).
    await app.register(rateLimit, {
      global: false,
      max: options.ratePerMinute,
      timeWindow: 60_000,
      store: options.store,
      errorResponseBuilder: (_request, context) =>
        new AppError('rate_limited', {
          status: context.statusCode,
          headers: { 'retry-after': String(Math.ceil(context.ttl / 1000)) },
        }),
    });
  },
  { name: 'security' },
);

/**
 * The global per-IP limit of one hot route, counted where the route asks (`admitted(request)`,
 * at the start of its handler) and waited for there too: a chat send waits for it alongside
 * its first read of the database, and its count goes in the same statement as the send's own
 * fair-use count (the shared counter's group commit) — one round trip and one statement less
 * before the first token (bench/README.md, "Chat at a model's pace"). The route answers the
 * same 429 with the same headers, before it writes anything. A request that never reaches the
 * handler (401, 400) is counted once its answer is sent: every request is counted, as on every
 * other route, but such a request answers its own error even when over the limit.
 */
export function deferredGlobalLimit(app: FastifyInstance) {
  const check = app.hasDecorator('rateLimit') ? app.rateLimit() : null;
  const started = new WeakMap<FastifyRequest, Promise<unknown>>();
  const count = (request: FastifyRequest, reply: FastifyReply): Promise<unknown> => {
    let counted = started.get(request);
    if (!counted) {
      counted = check ? (check.call(app, request, reply) as Promise<unknown>) : Promise.resolve();
      counted.catch(() => undefined); // awaited by the handler; after an early answer, only counted
      started.set(request, counted);
    }
    return counted;
  };
  return {
    /** The route's options: the plugin's own hook off, the count after an answer without the handler. */
    route: check
      ? {
          config: { rateLimit: false as const },
          onResponse: async (request: FastifyRequest, reply: FastifyReply) => {
            void count(request, reply);
          },
        }
      : {},
    /** Counts the request; settles once counted, rejects with the 429 when it is over the limit. */
    admitted: (request: FastifyRequest, reply: FastifyReply): Promise<unknown> => count(request, reply),
  };
}
