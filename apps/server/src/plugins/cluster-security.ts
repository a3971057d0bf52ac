import fp from 'fastify-plugin';
import { REWARDFUL_ORIGIN } from '@reverie/shared';
import type { Config } from '../config.js';
import { BatchedWindowCounter, sharedRateLimitStore, type WindowCounter } from '../providers/limits/index.js';
import { securityPlugin } from './security.js';

/**
 * The routes that spend money or send e-mail: when the shared limits are slow or away
 * (LIMITS_TIMEOUT_MS), their limits answer 503 rather than let requests through uncounted by
 * the cluster. Every other limit (reads, the global per-address one) counts in process and goes on.
 */
export const FAIL_CLOSED_ROUTES =
  /^\/(?:api\/(?:billing|unblur|transform|register|password_reset|resend_activation|activate|support|takedown|audio|subscription|payments|profile\/claim_desires|profile\/data_export)|password\/)/;

export interface ClusterSecurityOptions {
  config: Pick<Config, 'WEB_ORIGIN' | 'RATE_LIMIT_PER_MINUTE' | 'REWARDFUL_API_KEY' | 'PUBLIC_URL'>;
  /** The cluster's shared limit counters (providers/limits). */
  limits: WindowCounter;
}

/**
 * `securityPlugin` as the settings ask for it, its limits counted once for the cluster: the
 * global per-address limit is hit by every request, so it is counted here and added to the
 * shared counter four times a second (no database write per request); the others count exactly.
 */
export const clusterSecurityPlugin = fp<ClusterSecurityOptions>(
  async (app, { config, limits }) => {
    const globalLimits = limits.kind === 'memory' ? limits : new BatchedWindowCounter(limits);
    if (globalLimits !== limits) app.addHook('onClose', async () => globalLimits.close());
    await app.register(securityPlugin, {
      store: sharedRateLimitStore(limits, globalLimits, (url) => FAIL_CLOSED_ROUTES.test(url)),
      globalCounter: globalLimits,
      webOrigins: config.WEB_ORIGIN,
      ratePerMinute: config.RATE_LIMIT_PER_MINUTE,
      scriptOrigins: config.REWARDFUL_API_KEY ? [REWARDFUL_ORIGIN] : [],
      hsts: new URL(config.PUBLIC_URL).protocol === 'https:',
    });
  },
  { name: 'cluster-security' },
);
