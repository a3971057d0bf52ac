import type { ClientConfig } from '@reverie/shared';
import type { Core } from '../../core.js';
import { defineModule } from '../../lib/module.js';
import { serverVersion } from '../../lib/version.js';
import { systemRoutes } from './system.routes.js';
import { SystemService } from './system.service.js';

export type SystemModuleDeps = Pick<Core, 'config' | 'database' | 'edition' | 'moderation'> & {
  /** Whether a voice call can start now (the calls module, registered later: asked per request). */
  callsAvailability: () => Promise<ClientConfig['calls']>;
};

/** The system module: `GET /api/health`, `GET /api/ready`, `GET /api/config`. */
export const systemModule = defineModule<SystemModuleDeps>('system', async (app, deps) => {
  const service = new SystemService({
    ...deps,
    version: serverVersion(),
    autoApproveCharacters: deps.config.MODERATION_AUTO_APPROVE && deps.moderation.canAutoApprove,
  });
  await app.register(systemRoutes, { service });
});
