import type { UserEvent } from '@reverie/shared';
import type { Core } from '../../core.js';
import { defineModule } from '../../lib/module.js';
import { WindowLimiter } from '../../providers/limits/index.js';
import { dataExportRoutes } from './data-export.routes.js';
import {
  DATA_EXPORT_EXPIRE_QUEUE,
  DATA_EXPORT_QUEUE,
  DataExportService,
  type DataExportJob,
} from './data-export.service.js';

export type DataExportModuleDeps = Pick<
  Core,
  'config' | 'db' | 'log' | 'jobs' | 'limits' | 'storage' | 'mail' | 'edition' | 'secret'
> & {
  /** The user's open apps hear that the archive is ready (the chats module's user events). */
  publish(userId: string, event: UserEvent): Promise<void>;
  /** Where archives are built before they go to storage (tests). */
  tempDir?: string;
};

/** Archives one address may ask for per day. */
export const DATA_EXPORTS_PER_ADDRESS_PER_DAY = 5;

declare module 'fastify' {
  interface FastifyInstance {
    /** "Download my data" (tests run its jobs and read its state). */
    dataExport: DataExportService;
  }
}

/**
 * The data-export module (docs/accounts.md "Download my data"): a ZIP of everything the app
 * holds about the user, built by a durable job, announced in the app and by e-mail, downloaded
 * through an expiring signed link.
 */
export const dataExportModule = defineModule<DataExportModuleDeps>('data-export', async (app, deps) => {
  const service = new DataExportService({
    db: deps.db,
    storage: deps.storage,
    jobs: deps.jobs,
    mail: deps.mail,
    edition: deps.edition,
    log: deps.log.child({ module: 'data-export' }),
    secret: deps.secret,
    publicUrl: deps.config.PUBLIC_URL,
    perAddress: new WindowLimiter(deps.limits, 'data-export-ip', DATA_EXPORTS_PER_ADDRESS_PER_DAY, 24 * 3600_000),
    publish: deps.publish,
    tempDir: deps.tempDir,
  });
  deps.jobs.work<DataExportJob>(DATA_EXPORT_QUEUE, (job, signal) => service.run(job, signal), {
    concurrency: 1,
    retryLimit: 2,
    retryDelaySeconds: 60,
    retryBackoff: true,
    expireInSeconds: 3600,
    onFailed: (job) => service.failed(job),
  });
  deps.jobs.work<DataExportJob>(DATA_EXPORT_EXPIRE_QUEUE, (job) => service.expire(job), {
    concurrency: 1,
    retryLimit: 5,
    retryDelaySeconds: 300,
  });
  app.decorate('dataExport', service);
  await app.register(dataExportRoutes, { service });
});

export { dataExportPrefix, DATA_EXPORT_QUEUE, DATA_EXPORT_EXPIRE_QUEUE } from './data-export.service.js';
