import type { Core } from '../../core.js';
import { defineModule } from '../../lib/module.js';
import { BotsGalleryService } from './bots.gallery.js';
import { BotsManageService } from './bots.manage.js';
import { botsRoutes } from './bots.routes.js';
import { BotsService } from './bots.service.js';
import { CatalogueCache } from './catalogue-cache.js';
import { WindowLimiter } from '../../providers/limits/index.js';

export type BotsModuleDeps = Pick<
  Core,
  | 'config'
  | 'db'
  | 'log'
  | 'storage'
  | 'urls'
  | 'moderation'
  | 'imageModeration'
  | 'cache'
  | 'pubsub'
  | 'limits'
  | 'pictureWork'
>;

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Characters (docs/characters.md): app.ts hands it to the modules that read a character
     * (the web pages, the media route, the chats) and to the style transform's photo check.
     */
    bots: BotsService;
    /** What the admin console does with characters (official ones, gallery, review, takedown). */
    botsManage: BotsManageService;
  }
}

/**
 * The bots module: the catalogue, a character's page, the user's characters and personas
 * (create, edit, Character Card import and export) under `/api/bots/…` and `/api/bot/…`.
 */
export const botsModule = defineModule<BotsModuleDeps>('bots', async (app, deps) => {
  // The guest catalogue's pages, shared by the replicas and dropped on every change (CATALOGUE_CACHE_S).
  const catalogue = new CatalogueCache({
    cache: deps.cache,
    pubsub: deps.pubsub,
    ttlMs: deps.config.CATALOGUE_CACHE_S * 1000,
    timeoutMs: deps.config.LIMITS_TIMEOUT_MS,
    onError: (error) => deps.log.warn({ err: error }, 'catalogue cache error'),
  });
  await catalogue.listen();
  app.addHook('onClose', async () => catalogue.close());
  const { limits, config } = deps;
  const serviceDeps = {
    ...deps,
    autoApprove: config.MODERATION_AUTO_APPROVE,
    catalogue,
    limiters: {
      photos: new WindowLimiter(limits, 'character-photo', config.CHARACTER_PHOTOS_PER_HOUR, 3_600_000),
      submissions: new WindowLimiter(limits, 'character-submission', config.CHARACTER_SUBMISSIONS_PER_DAY, 86_400_000),
      creations: new WindowLimiter(limits, 'character-creation', config.CHARACTER_CREATIONS_PER_HOUR, 3_600_000),
    },
  };
  const service = new BotsService(serviceDeps);
  app.decorate('bots', service);
  app.decorate('botsManage', new BotsManageService(serviceDeps));
  const gallery = new BotsGalleryService(serviceDeps);
  await app.register(botsRoutes, { service, gallery, pictureWork: deps.pictureWork });
});

/** Other modules receive these services through their deps (app.ts passes `app.bots`, `app.botsManage`). */
export { BotsService, type BotsServiceDeps, type PreparedCardImport } from './bots.service.js';
export { BotsManageService } from './bots.manage.js';
export type { BotPictureRow, BotRow } from './bots.repository.js';
/** Where a character's files and their blurred copies live (pure; the media route, takedowns, delete all data). */
export { blurredKeyOf, characterFilePrefix, originalOfBlurredKey, type PictureLog } from './explicit-pictures.js';
/** A character in a reader's language (the official characters' translations; chats greet and prompt with it). */
export { localizeBot } from './localize.js';
/** A character as the contract shows it (the chats and the admin console present characters with it). */
export { presentBot, presentBotDetail } from './bots.presenter.js';
/** A card whose fields break the contract (the console's card import translates its errors). */
export { CardFieldsError } from './card.js';
/** A character as a Character Card V3 (download my data). */
export { botToCardV3 } from './card.js';
/** The official catalogue and its seed (runtime.ts seeds on start; `npm run db:seed`). */
export { seedOfficialCharacters } from './bots.seed.js';
export { OFFICIAL_CHARACTERS, type OfficialCharacter } from './official-characters.js';
/** The offline-drawn pictures and the voice fitting (command-line tools). */
export { renderPicture } from './bot-pictures.js';
export { fitCharacterVoices } from './character-voice.js';
