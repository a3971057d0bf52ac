import { createHash, timingSafeEqual } from 'node:crypto';
import fp from 'fastify-plugin';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

declare module 'fastify' {
  interface FastifyInstance {
    /** This app's Prometheus registry; modules add their own counters to it. */
    metrics: Registry;
  }
}

export interface MetricsOptions {
  /** METRICS_TOKEN: when set, `/metrics` needs `Authorization: Bearer <token>`. */
  token?: string;
  /**
   * Whether `/metrics` may answer without a token: always in development and tests, in
   * production only when the operator says so (METRICS_PUBLIC=true).
   */
  openWithoutToken: boolean;
}

/** How often the event loop's delay is sampled for `nodejs_eventloop_lag_*` (ms). */
export const EVENT_LOOP_SAMPLE_MS = 100;

/**
 * Prometheus metrics at `/metrics`: process defaults plus request counts and latency per
 * route. Each app instance has its own registry, so tests can build many apps. With a token
 * it answers 401 without it; without a token it answers 404 unless open (see options).
 */
export const metricsPlugin = fp<MetricsOptions>(
  async (app, options) => {
    const registry = new Registry();
    // prom-client samples the event loop's delay with a timer every 10 ms by default: 100
    // wake-ups a second, about half of what an idle server spent (4 of 8 ms of CPU a second,
    // bench/README.md issue 25). Every 100 ms still catches any stall longer than that.
    collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });
    const duration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request latency by route and status',
      labelNames: ['method', 'route', 'status_code'] as const,
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    });
    const total = new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests by route and status',
      labelNames: ['method', 'route', 'status_code'] as const,
      registers: [registry],
    });
    app.decorate('metrics', registry);

    app.addHook('onResponse', (request, reply, done) => {
      const route = request.routeOptions.url ?? 'unmatched';
      const labels = { method: request.method, route, status_code: String(reply.statusCode) };
      duration.observe(labels, reply.elapsedTime / 1000);
      total.inc(labels);
      done();
    });

    app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
      if (options.token) {
        if (!bearerMatches(request.headers.authorization, options.token))
          return reply.status(401).send({ detail: 'Metrics token required', code: 'unauthorized' });
      } else if (!options.openWithoutToken) {
        return reply.status(404).send({ detail: 'Not found', code: 'not_found' });
      }
      reply.header('content-type', registry.contentType);
      return registry.metrics();
    });
  },
  { name: 'metrics' },
);

/** Compares `Bearer <token>` in constant time (hashes of equal length). */
function bearerMatches(header: string | undefined, token: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(header ?? ''), digest(`Bearer ${token}`));
}
