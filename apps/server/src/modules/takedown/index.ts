import type { Core } from '../../core.js';
import { defineModule } from '../../lib/module.js';
import { WindowLimiter } from '../../providers/limits/index.js';
import { takedownRoutes } from './takedown.routes.js';
import { TakedownService } from './takedown.service.js';

export type TakedownModuleDeps = Pick<Core, 'config' | 'db' | 'mail' | 'edition' | 'log' | 'limits'>;

declare module 'fastify' {
  interface FastifyInstance {
    /** Takedown requests (the acknowledgement is queued before the answer). */
    takedown: TakedownService;
  }
}

/** The takedown module: `POST /api/takedown`, open to anyone (docs/admin.md "Takedown"). */
export const takedownModule = defineModule<TakedownModuleDeps>('takedown', async (app, deps) => {
  const { config } = deps;
  const takedown = new TakedownService({
    ...deps,
    publicUrl: config.PUBLIC_URL,
    log: deps.log.child({ module: 'takedown' }),
    perEmail: new WindowLimiter(deps.limits, 'takedown-email', config.TAKEDOWN_PER_EMAIL_PER_DAY, 24 * 3600_000, {
      failClosed: true,
    }),
  });
  app.decorate('takedown', takedown);
  await app.register(takedownRoutes, {
    service: takedown,
    perIpPerHour: config.TAKEDOWN_PER_IP_PER_HOUR,
  });
});

export type { TakedownService } from './takedown.service.js';
