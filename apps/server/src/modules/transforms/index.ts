import type { Core } from '../../core.js';
import { defineModule } from '../../lib/module.js';
import { WindowLimiter } from '../../providers/limits/index.js';
import { createTransformProvider, type TransformProvider } from './transform-provider.js';
import { TransformsConsole } from './transforms.console.js';
import { transformRoutes } from './transforms.routes.js';
import { TransformsService, type TransformPictureCheck } from './transforms.service.js';

export type TransformsModuleDeps = Pick<
  Core,
  'config' | 'db' | 'log' | 'storage' | 'urls' | 'jobs' | 'limits' | 'pictureWork'
> & {
  /** The bots module's photo check of every uploaded and transformed picture. */
  pictureCheck: TransformPictureCheck;
  /** The style transform's engine; by default the one TRANSFORM_PROVIDER selects (tests pass failing ones). */
  transformProvider?: TransformProvider;
};

declare module 'fastify' {
  interface FastifyInstance {
    /** The image style transform (docs/transform.md); tests wait for its jobs with `transforms.idle()`. */
    transforms: TransformsService;
    /** What the admin console's takedowns do with transforms. */
    transformsConsole: TransformsConsole;
  }
}

/**
 * The transforms module (issue 16, docs/transform.md): `/api/transforms…`, one durable job per
 * paid transform, and the periodic sweep of abandoned uploads.
 */
export const transformsModule = defineModule<TransformsModuleDeps>('transforms', async (app, deps) => {
  const { config, limits } = deps;
  const hourly = (name: string) =>
    new WindowLimiter(limits, name, config.TRANSFORM_UPLOADS_PER_HOUR, 3_600_000, { failClosed: true });
  const service = new TransformsService({
    ...deps,
    provider:
      deps.transformProvider ??
      createTransformProvider({ ...config, COMFYUI_URL: config.COMFYUI_URL ?? config.IMAGE_BASE_URL }),
    uploadLimiter: hourly('transform-upload'),
    previewLimiter: hourly('transform-preview'),
    timeoutS: config.TRANSFORM_TIMEOUT_S,
    concurrency: config.TRANSFORM_CONCURRENCY,
    retries: config.TRANSFORM_RETRIES,
    retryDelayS: config.TRANSFORM_RETRY_DELAY_S,
  });
  app.decorate('transforms', service);
  app.decorate('transformsConsole', new TransformsConsole());
  // Abandoned uploads (unjudged or unpaid) are swept by a periodic durable job, once for the cluster.
  app.addHook('onReady', async () => {
    await service.start().catch((error: unknown) => {
      app.log.warn({ err: error }, 'could not schedule the sweep of abandoned transform uploads');
    });
  });
  await app.register(transformRoutes, { service, pictureWork: deps.pictureWork });
});

export { TransformsService, type TransformPictureCheck } from './transforms.service.js';
export type { TransformProvider } from './transform-provider.js';
/** Where a user's transform files live (delete all data, takedown) and the transform a media key belongs to. */
export { transformOfMediaKey, userTransformPrefix } from './media-keys.js';
/**
 * The deleters of transform rows, taking a `db` because the accounts module (delete all data)
 * and the console's takedown run them inside their own transactions, with their other rows.
 */
export { deleteTransform, deleteUserTransforms } from './transforms.repository.js';
