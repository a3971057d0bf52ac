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
/** The photo check every user picture goes through (character and persona photos, style transforms). */
export { checkUserPhoto } from './bots.service.js';
