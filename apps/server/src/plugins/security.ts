import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import rateLimit, { type FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/errors.js';

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
}

/**
 * Security headers, CORS for a separately hosted web app, and a global per-IP rate limit
 * (counted once for the cluster when a shared `store` is given).
 */
export const securityPlugin = fp<SecurityOptions>(
  async (app, options) => {
    await app.register(helmet, {
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

    await app.register(cors, {
      origin: options.webOrigins.length ? options.webOrigins : false,
      methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
      allowedHeaders: ['Authorization', 'Content-Type', 'Accept-Language', 'Accept'],
      exposedHeaders: ['Retry-After'],
      maxAge: 600,
    });

    await app.register(rateLimit, {
      global: true,
      max: options.ratePerMinute,
      timeWindow: 60_000,
      store: options.store,
      // Static files and probes are not rate limited; the API is.
      allowList: (request) => !request.url.startsWith('/api/') || request.url.startsWith('/api/health'),
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
 * The global per-IP limit of one hot route, counted from the route's own first hook (after
 * authentication, before the body is read, as on every route) but waited for only where the
 * route asks (`admitted(request)`): a chat send waits for it alongside its first read of the
 * database instead of before that read — one round trip to the shared counter less before the
 * first token (bench/README.md, "Chat at a model's pace"). The route then answers the same 429
 * with the same headers, before it writes anything; a request that fails before its handler
 * (400, 401) is counted all the same but answers its own error.
 */
export function deferredGlobalLimit(app: FastifyInstance) {
  const check = app.hasDecorator('rateLimit') ? app.rateLimit() : null;
  const started = new WeakMap<FastifyRequest, Promise<unknown>>();
  return {
    /** The route's options: the plugin's own hook off, this one on. */
    route: check
      ? {
          config: { rateLimit: false as const },
          onRequest: async (request: FastifyRequest, reply: FastifyReply) => {
            const counted = check.call(app, request, reply) as Promise<unknown>;
            counted.catch(() => undefined); // awaited by the handler; a 400 or 401 never asks
            started.set(request, counted);
          },
        }
      : {},
    /** Settles once the request is counted; rejects with the 429 when it is over the limit. */
    admitted: (request: FastifyRequest): Promise<unknown> => started.get(request) ?? Promise.resolve(),
  };
}
