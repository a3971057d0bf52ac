import type { Database } from '../../db/client.js';
import { AppError, notFound } from '../../lib/errors.js';
import {
  deleteGalleryPicture,
  insertGalleryPicture,
  listGallery,
  setPictureVisibility,
  updateBot,
  type BotPictureRow,
  type BotRow,
} from './bots.repository.js';

/**
 * The gallery's rules, shared by the admin console (`BotsManageService`) and the author's own
 * gallery (`BotsGalleryService`). Each runs on a character already locked in `db`'s transaction.
 */
export interface GalleryLimits {
  /** Public pictures at most (the page). */
  public: number;
  /** Private pictures at most (sent in chat). */
  private: number;
  /** Pictures at most, both kinds together (none: only the two above). */
  total?: number;
}

const full = () => new AppError('gallery_full', { status: 409 });

/**
 * Adds a stored picture at the end of the gallery (409 `gallery_full` past a limit). With
 * `firstIsAvatar`, the first picture of an empty gallery becomes the avatar (the console's
 * characters); an author's avatar is their photo, apart from the gallery.
 */
export async function addToGallery(
  db: Database,
  bot: BotRow,
  picture: { key: string; explicit: boolean; visibility: BotPictureRow['visibility'] },
  limits: GalleryLimits,
  firstIsAvatar: boolean,
): Promise<{ after: BotRow; picture: BotPictureRow }> {
  const gallery = await listGallery(db, bot.id);
  if (limits.total !== undefined && gallery.length >= limits.total) throw full();
  if (gallery.filter((p) => p.visibility === picture.visibility).length >= limits[picture.visibility]) throw full();
  const row = await insertGalleryPicture(db, bot.id, picture.key, picture.visibility, picture.explicit);
  const after =
    firstIsAvatar && gallery.length === 0 && picture.visibility === 'public'
      ? await updateBot(db, bot.id, { avatarKey: picture.key, avatarExplicit: picture.explicit })
      : bot;
  return { after, picture: row };
}

/**
 * Removes a picture (404 when it is not this character's; the caller deletes its file once
 * committed). When it was the avatar, the next public picture becomes the avatar (none left:
 * `needsAvatar`).
 */
export async function removeFromGallery(
  db: Database,
  bot: BotRow,
  pictureId: string,
): Promise<{ after: BotRow; picture: BotPictureRow; needsAvatar: boolean }> {
  const picture = await deleteGalleryPicture(db, bot.id, pictureId);
  if (!picture) throw notFound();
  if (bot.avatarKey !== picture.mediaKey) return { after: bot, picture, needsAvatar: false };
  // The avatar is always a public picture.
  const [next] = await listGallery(db, bot.id, 'public');
  const after = await updateBot(db, bot.id, {
    avatarKey: next?.mediaKey ?? null,
    avatarExplicit: next?.explicit ?? false,
  });
  return { after, picture, needsAvatar: !next };
}

/**
 * Makes a picture public (on the page) or private (sent in chat only). The avatar stays public
 * (409 `avatar_public`); each kind has its limit (409 `gallery_full`). 404 when it is not this
 * character's. Answers the picture as it is now.
 */
export async function changePictureVisibility(
  db: Database,
  bot: BotRow,
  pictureId: string,
  visibility: BotPictureRow['visibility'],
  limits: GalleryLimits,
): Promise<BotPictureRow> {
  const gallery = await listGallery(db, bot.id);
  const picture = gallery.find((p) => p.id === pictureId);
  if (!picture) throw notFound();
  if (picture.visibility === visibility) return picture;
  if (visibility === 'private' && picture.mediaKey === bot.avatarKey)
    throw new AppError('avatar_public', { status: 409 });
  if (gallery.filter((p) => p.visibility === visibility).length >= limits[visibility]) throw full();
  return (await setPictureVisibility(db, bot.id, pictureId, visibility)) ?? picture;
}
