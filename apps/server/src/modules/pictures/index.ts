import type { Core } from '../../core.js';
import { defineModule } from '../../lib/module.js';
import { pictureRoutes } from './pictures.routes.js';
import { PictureService, type PictureServiceDeps } from './pictures.service.js';

export type PicturesModuleDeps = Pick<Core, 'config' | 'db' | 'log' | 'storage' | 'urls' | 'images'> &
  Pick<PictureServiceDeps, 'sceneAccess'>;

declare module 'fastify' {
  interface FastifyInstance {
    /** Pictures in chat (docs/pictures.md): app.ts hands it to the chats module (`isPictureRequest`, `reply`). */
    pictures: PictureService;
  }
}

/** The pictures module: the character's picture replies in chat and `GET /api/unblur/image/{id}`. */
export const picturesModule = defineModule<PicturesModuleDeps>('pictures', async (app, deps) => {
  const service = new PictureService({
    ...deps,
    imageTimeoutMs: deps.config.IMAGE_TIMEOUT_S * 1000,
  });
  app.decorate('pictures', service);
  await app.register(pictureRoutes, { service });
});

export { PictureService, type PictureReplyArgs } from './pictures.service.js';
/** A picture as it is kept, and the blurred preview of an explicit one (the bots module's copies too). */
export { makeBlurredPreview, normalizePicture } from './blur.js';
