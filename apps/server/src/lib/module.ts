import type { FastifyPluginAsync, FastifyPluginOptions } from 'fastify';
import fp from 'fastify-plugin';

/**
 * A server module's plugin (docs/ARCHITECTURE.md "The module shape"): `register` builds the
 * module's services from its one typed deps object, decorates the app with what app.ts hands to
 * other modules, and registers the module's routes. It is not encapsulated (fastify-plugin), so
 * those decorations reach the app; `name` is how Fastify names it in its errors.
 */
export function defineModule<Deps extends FastifyPluginOptions>(name: string, register: FastifyPluginAsync<Deps>) {
  return fp<Deps>(register, { name });
}
