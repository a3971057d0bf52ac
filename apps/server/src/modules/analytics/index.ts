import { WindowLimiter } from '../../providers/limits/index.js';
import type { Core } from '../../core.js';
import { defineModule } from '../../lib/module.js';
import { analyticsRoutes } from './analytics.routes.js';
import { AnalyticsService } from './analytics.service.js';

export type AnalyticsModuleDeps = Pick<Core, 'db' | 'config' | 'limits'>;

/** The analytics module: `POST /api/analytics/events` and the subscribe-click counter. */
export const analyticsModule = defineModule<AnalyticsModuleDeps>('analytics', async (app, deps) => {
  // Rows per minute, counted for the cluster per account or device (ANALYTICS_EVENTS_PER_MINUTE)
  // and per address (four times as many: several people may share one).
  const perMinute = deps.config.ANALYTICS_EVENTS_PER_MINUTE;
  const rows = new WindowLimiter(deps.limits, 'analytics-rows', perMinute, 60_000);
  const addressRows = new WindowLimiter(deps.limits, 'analytics-address-rows', perMinute * 4, 60_000);
  await app.register(analyticsRoutes, { service: new AnalyticsService({ db: deps.db, rows, addressRows }) });
});
