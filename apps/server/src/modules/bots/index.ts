/**
 * What other modules may use of the bots module. Its repository is its own: other modules
 * read characters through these functions (eslint `reverie/no-foreign-repository-imports`).
 */
export {
  findBotById,
  findPublicBotBySlug,
  findVisibleBotById,
  findVisibleBotBySlug,
  type BotRow,
} from './bots.repository.js';
