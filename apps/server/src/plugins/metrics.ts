import fp from 'fastify-plugin';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

declare module 'fastify' {
  interface FastifyInstance {
    /** This app's Prometheus registry; modules add their own counters to it. */
    metrics: Registry;
  }
}

/**
 * Prometheus metrics at `/metrics`: process defaults plus request counts and latency per
 * route. Each app instance has its own registry, so tests can build many apps.
 */
export const metricsPlugin = fp<{ token?: string }>(
  async (app, options) => {
    const registry = new Registry();
    collectDefaultMetrics({ register: registry });
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

    app.addHook('onResponse', async (request, reply) => {
      const route = request.routeOptions.url ?? 'unmatched';
      const labels = { method: request.method, route, status_code: String(reply.statusCode) };
      duration.observe(labels, reply.elapsedTime / 1000);
      total.inc(labels);
    });

    app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
      if (options.token && request.headers.authorization !== `Bearer ${options.token}`) {
        return reply.status(401).send({ detail: 'Metrics token required', code: 'unauthorized' });
      }
      reply.header('content-type', registry.contentType);
      return registry.metrics();
    });
  },
  { name: 'metrics' },
);
