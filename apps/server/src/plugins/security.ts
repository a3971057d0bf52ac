import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import rateLimit, { type FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
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
