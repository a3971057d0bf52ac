import { BOT_GALLERY_MAX, BOT_GALLERY_PUBLIC_MAX, type BotGallery, type BotGalleryPicture } from '@reverie/shared';
import type { Database } from '../../db/client.js';
import { notFound } from '../../lib/errors.js';
import {
  findBotByIdForUpdate,
  findVisibleBotBySlug,
  listGallery,
  updateBot,
  type BotPictureRow,
  type BotRow,
  type NewBotRow,
} from './bots.repository.js';
import { BotsService, type BotsServiceDeps } from './bots.service.js';
import { blurredKeyOf } from './explicit-pictures.js';
import { addToGallery, changePictureVisibility, removeFromGallery, type GalleryLimits } from './gallery.js';

/** The author's gallery: 24 pictures at most, 12 of them public (the page). */
const AUTHOR_LIMITS: GalleryLimits = {
  public: BOT_GALLERY_PUBLIC_MAX,
  private: BOT_GALLERY_MAX,
  total: BOT_GALLERY_MAX,
};

/** The widths the media route keeps beside a picture (`<key>.w<width>.webp`, modules/media). */
const VARIANT_WIDTHS = [256, 512];

const isListed = (row: BotRow) => row.visibility === 'public' && row.reviewState === 'approved';

/**
 * The author manages their character's gallery from the edit dialog (docs/characters.md, "The
 * author's gallery"): the console's gallery rules (`gallery.ts`), the photo check of every
 * character picture (`BotsService.storeBotPicture`) and the review rules of a new photo.
 * Only the author; 404 for anyone else, for a persona and for a deleted character.
 */
export class BotsGalleryService {
  private readonly bots: BotsService;

  constructor(private readonly deps: BotsServiceDeps) {
    this.bots = new BotsService(deps);
  }

  /** Every picture with its visibility, in order (GET /api/bot/{slug}/gallery). */
  async list(authorId: string, slug: string): Promise<BotGallery> {
    const row = await this.ownCharacter(authorId, slug);
    return this.present(row, await listGallery(this.deps.db, row.id));
  }

  /**
   * Adds an uploaded picture (POST /api/bot/{slug}/gallery): judged like a photo (a minor's face
   * → 422 before anything is stored; explicit → marked, blurred for others until an administrator
   * reviews the pictures again); 409 `gallery_full` past the limits. A rejected public character
   * given a new public picture goes back to the review queue, as with a new photo.
   */
  async add(
    authorId: string,
    slug: string,
    file: Buffer,
    visibility: BotPictureRow['visibility'],
  ): Promise<BotGallery> {
    const found = await this.ownCharacter(authorId, slug);
    const stored = await this.bots.storeBotPicture(found.id, file);
    try {
      await this.write(authorId, found.id, async (tx, row) => {
        await addToGallery(tx, row, { key: stored.key, explicit: stored.explicit, visibility }, AUTHOR_LIMITS, false);
        return reviewAfterNewPicture(row, stored.explicit, visibility);
      });
    } catch (error) {
      await this.deleteFiles(stored.key);
      throw error;
    }
    return this.list(authorId, slug);
  }

  /** Makes a picture public (the page) or private (sent in chat only); PATCH /api/bot/{slug}/gallery/{id}. */
  async setVisibility(
    authorId: string,
    slug: string,
    pictureId: string,
    visibility: BotPictureRow['visibility'],
  ): Promise<BotGallery> {
    const found = await this.ownCharacter(authorId, slug);
    await this.write(authorId, found.id, async (tx, row) => {
      const before = (await listGallery(tx, row.id)).find((p) => p.id === pictureId);
      const picture = await changePictureVisibility(tx, row, pictureId, visibility, AUTHOR_LIMITS);
      return before?.visibility === picture.visibility ? {} : reviewAfterNewPicture(row, false, visibility);
    });
    return this.list(authorId, slug);
  }

  /** Deletes a picture and its files (DELETE /api/bot/{slug}/gallery/{id}). */
  async remove(authorId: string, slug: string, pictureId: string): Promise<BotGallery> {
    const found = await this.ownCharacter(authorId, slug);
    const done: { picture?: BotPictureRow; needsAvatar?: boolean } = {};
    const row = await this.write(authorId, found.id, async (tx, locked) => {
      Object.assign(done, await removeFromGallery(tx, locked, pictureId));
      return {};
    });
    if (done.picture) await this.deleteFiles(done.picture.mediaKey);
    // Its avatar was this picture (an administrator chose it) and none is left: a drawn one, as at creation.
    if (done.needsAvatar) {
      const key = await this.bots.generatedAvatar(row.id, `${row.name}-${row.id}`, row.tags);
      await updateBot(this.deps.db, row.id, { avatarKey: key });
    }
    return this.list(authorId, slug);
  }

  /** The author's own character (not a persona, not deleted); 404 for anyone else's. */
  private async ownCharacter(authorId: string, slug: string): Promise<BotRow> {
    const row = await findVisibleBotBySlug(this.deps.db, slug, authorId);
    if (!row || row.authorId !== authorId || row.deletedAt || row.kind !== 'character') throw notFound();
    return row;
  }

  /**
   * Runs a gallery write on the character locked in one transaction, then the changes to its row
   * `work` answers (its review); the guest catalogue is told when the character is listed.
   */
  private async write(
    authorId: string,
    botId: string,
    work: (tx: Database, row: BotRow) => Promise<Partial<NewBotRow>>,
  ): Promise<BotRow> {
    const { before, after } = await this.deps.db.transaction(async (transaction) => {
      const tx = transaction as unknown as Database;
      const locked = await findBotByIdForUpdate(tx, botId);
      if (!locked || locked.authorId !== authorId || locked.deletedAt) throw notFound();
      const values = await work(tx, locked);
      return { before: locked, after: Object.keys(values).length ? await updateBot(tx, botId, values) : locked };
    });
    if (isListed(before) || isListed(after)) void this.deps.catalogue?.changed();
    return after;
  }

  /** A picture's file, its blurred copy and their resized copies. */
  private async deleteFiles(key: string): Promise<void> {
    const { storage } = this.deps;
    const keys = [key, blurredKeyOf(key)].flatMap((k) => [k, ...VARIANT_WIDTHS.map((w) => `${k}.w${w}.webp`)]);
    await Promise.all(keys.map((k) => storage.delete(k))).catch(() => {});
  }

  private present(row: BotRow, pictures: BotPictureRow[]): BotGallery {
    const listed = isListed(row);
    return {
      results: pictures.map((p): BotGalleryPicture => ({
        id: p.id,
        // The author sees every picture sharp; only a listed character's public, non-explicit ones are unsigned.
        url: this.deps.urls.url(p.mediaKey, { signed: !(listed && p.visibility === 'public' && !p.explicit) })!,
        visibility: p.visibility,
        explicit: p.explicit,
      })),
      max: AUTHOR_LIMITS.total!,
      public_max: AUTHOR_LIMITS.public,
    };
  }
}

/**
 * The review rules of a new photo (`BotsService.replaceOwnPhoto`) for a new picture: an explicit
 * one is blurred for others until an administrator reviews the pictures again; a rejected
 * public character given a new public picture goes back to the review queue, its reason cleared.
 */
function reviewAfterNewPicture(
  row: BotRow,
  explicit: boolean,
  visibility: BotPictureRow['visibility'],
): Partial<NewBotRow> {
  const values: Partial<NewBotRow> = {};
  if (explicit) values.picturesReviewedAt = null;
  if (visibility === 'public' && row.visibility === 'public' && row.reviewState === 'rejected') {
    values.reviewState = 'pending';
    values.reviewReason = null;
  }
  return values;
}
