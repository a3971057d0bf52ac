import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';

export interface InstanceOptions {
  /** Pino options or an instance; false for silence (tests). */
  logger?: FastifyServerOptions['logger'];
  /** TRUST_PROXY: the client's address and host from `X-Forwarded-*`. */
  trustProxy: boolean;
}

/**
 * The Fastify instance every app is built on: lenient slashes, a 1 MB body limit, the request
 * id from `X-Request-Id`, zod schemas (shared contract) validating requests and serialising answers.
 */
export function createInstance(options: InstanceOptions): FastifyInstance {
  const app = Fastify({
    logger: options.logger ?? false,
    trustProxy: options.trustProxy,
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true },
    bodyLimit: 1024 * 1024,
    requestIdHeader: 'x-request-id',
    // A module's start (the job queue's, which waits on the database) may take longer than
    // Fastify's 10 s on a busy host; failing the whole start for it helps nobody.
    pluginTimeout: 60_000,
    // Each request's logger (`request.log`): Fastify always passes options (the route's level),
    // which sends pino down its slow path (formatters rebuilt, options checked) for every
    // request; at the logger's own level the child is the same without them.
    childLoggerFactory: (logger, bindings, childOptions) =>
      logger.child(
        bindings,
        Object.keys(childOptions).every((key) => key === 'level') &&
          (childOptions.level ?? logger.level) === logger.level
          ? undefined
          : childOptions,
      ),
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  return app;
}
