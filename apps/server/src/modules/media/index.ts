import type { Core } from '../../core.js';
import { defineModule } from '../../lib/module.js';
import { mediaRoutes } from './media.routes.js';
import { MediaService, type MediaCharacters } from './media.service.js';

export type MediaModuleDeps = Pick<Core, 'db' | 'storage' | 'urls'> & {
  /** The bots module (`app.bots`): a character, its picture's explicit flag, a blurred copy's store. */
  bots: MediaCharacters;
};

/**
 * The media module: `GET /api/media/{key}`, a file of media storage to whoever may see it.
 * It owns no table: characters come from the bots module, blog covers' posts from the blog's.
 */
export const mediaModule = defineModule<MediaModuleDeps>('media', async (app, deps) => {
  await app.register(mediaRoutes, { service: new MediaService(deps) });
});

export type { MediaCharacters } from './media.service.js';
