/**
 * What other modules may use of the bots module. Its repository is its own: other modules
 * read characters through these functions (eslint `reverie/no-foreign-repository-imports`).
 */
export {
  deleteCharacters,
  findBotById,
  findBotWithPicture,
  findPublicBotBySlug,
  findVisibleBotById,
  findVisibleBotBySlug,
  type BotRow,
} from './bots.repository.js';
/** Uploaded pictures' judgement and explicit pictures' blurred copies (docs/moderation.md). */
export {
  blurredKeyOf,
  characterFilePrefix,
  judgeUploadedPicture,
  originalOfBlurredKey,
  refuseUnsafePicture,
  storeBlurredCopy,
  type PictureLog,
} from './explicit-pictures.js';
export * as botsManage from './bots.manage.js';
export { readMultipart, translatedFieldErrors } from './bots.routes.js';
export { CardFieldsError } from './card.js';
export { presentBot, presentBotDetail } from './bots.presenter.js';
export type { BotsDeps } from './bots.service.js';
export type { BotPictureRow } from './bots.repository.js';
/** The official catalogue and its seed (runtime.ts seeds on start; `npm run db:seed`). */
export { seedOfficialCharacters } from './bots.seed.js';
export { OFFICIAL_CHARACTERS, type OfficialCharacter } from './official-characters.js';
