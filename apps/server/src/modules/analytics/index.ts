import type { Core } from '../../core.js';
import { defineModule } from '../../lib/module.js';
import { analyticsRoutes } from './analytics.routes.js';
import { AnalyticsService } from './analytics.service.js';

export type AnalyticsModuleDeps = Pick<Core, 'db'>;

/** The analytics module: `POST /api/analytics/events` and the subscribe-click counter. */
export const analyticsModule = defineModule<AnalyticsModuleDeps>('analytics', async (app, deps) => {
  await app.register(analyticsRoutes, { service: new AnalyticsService(deps) });
});
