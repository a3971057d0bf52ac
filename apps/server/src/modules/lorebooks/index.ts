import { LORE_WRITES_PER_MINUTE } from '@reverie/shared';
import type { Core } from '../../core.js';
import { defineModule } from '../../lib/module.js';
import { WindowLimiter } from '../../providers/limits/index.js';
import type { BotsService } from '../bots/index.js';
import { lorebooksRoutes } from './lorebooks.routes.js';
import { LorebooksService } from './lorebooks.service.js';

export { exportUserLorebooks } from './lorebooks.service.js';

export type LorebooksModuleDeps = Pick<Core, 'db' | 'limits'> & { bots: BotsService };

/** What other modules may ask of the lorebooks module (the chats module's prompt and chat menu). */
export type LorebooksApi = Pick<LorebooksService, 'forPrompt' | 'chatBooks' | 'setChatBooks' | 'compiler'>;

declare module 'fastify' {
  interface FastifyInstance {
    lorebooks: LorebooksApi;
  }
}

/**
 * The lorebooks module (docs/lorebooks.md): characters' and users' lorebooks, their entries,
 * World Info and card files, and the compiled books of a reply's prompt.
 */
export const lorebooksModule = defineModule<LorebooksModuleDeps>('lorebooks', async (app, deps) => {
  const service = new LorebooksService({
    db: deps.db,
    bots: deps.bots,
    writes: new WindowLimiter(deps.limits, 'lore-writes', LORE_WRITES_PER_MINUTE, 60_000),
  });
  // A card's export carries the book as its author edited it.
  deps.bots.useEditedBooks((botId) => service.editedCardBook(botId));
  app.decorate('lorebooks', service);
  await app.register(lorebooksRoutes, { service });
});

export { activateLore, LoreCompiler, type CompiledBook, type FiredEntry } from './lore-engine.js';
export { compileCardBook } from './card-book.js';
