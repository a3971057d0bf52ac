/**
 * What other modules may use of the bots module. Its repository is its own: other modules
 * read characters through these functions (eslint `reverie/no-foreign-repository-imports`).
 */
export {
  findBotById,
  findPublicBotBySlug,
  findVisibleBotById,
  findVisibleBotBySlug,
  isExplicitPicture,
  type BotRow,
} from './bots.repository.js';
import type { BotRow } from './bots.repository.js';
/** Uploaded pictures' judgement and explicit pictures' blurred copies (docs/moderation.md). */
export {
  blurredKeyOf,
  judgeUploadedPicture,
  originalOfBlurredKey,
  refuseUnsafePicture,
  storeBlurredCopy,
  type PictureLog,
} from './explicit-pictures.js';
/**
 * For the media route (`modules/media`, which calls it by this name): whether a character's
 * explicit originals are kept from their plain URL. Always (PRODUCT.md §6): the blurred copy is
 * public, the original goes out only as a signed URL (to a logged-in viewer once reviewed, to the
 * author), or to the author's or an administrator's token.
 */
export const picturesHeldForReview = (_bot: BotRow): boolean => true;
export * as botsManage from './bots.manage.js';
export { readMultipart, translatedFieldErrors } from './bots.routes.js';
export { CardFieldsError } from './card.js';
export { presentBotDetail } from './bots.presenter.js';
export type { BotsDeps } from './bots.service.js';
export type { BotPictureRow } from './bots.repository.js';
