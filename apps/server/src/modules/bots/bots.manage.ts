import { randomUUID } from 'node:crypto';
import {
  ADMIN_GALLERY_MAX,
  ADMIN_PRIVATE_PICTURES_MAX,
  type AdminCharacterInput,
  type AdminCharacterPatch,
} from '@reverie/shared';
import type { Database } from '../../db/client.js';
import { AppError, notFound } from '../../lib/errors.js';
import { sentColumns } from '../../lib/patch.js';
import { CONSOLE_EDIT_COLUMNS, ownTags } from './card-columns.js';
import { voiceForCharacter } from './character-voice.js';
import {
  countPendingReview,
  deleteCharacters,
  findBotById,
  findBotByIdForUpdate,
  insertBot,
  listGalleries,
  listGallery,
  listManagedBots,
  listPendingReview,
  setGalleryPosition,
  slugTakenByOther,
  updateBot,
  type BotPictureRow,
  type BotRow,
  type NewBotRow,
} from './bots.repository.js';
import { addToGallery, changePictureVisibility, removeFromGallery, type GalleryLimits } from './gallery.js';
import { BotsService, cardTexts, type BotsServiceDeps, type PreparedCardImport } from './bots.service.js';

/** The console's gallery: public pictures (the page) and private ones (sent in chat). */
const CONSOLE_LIMITS: GalleryLimits = { public: ADMIN_GALLERY_MAX, private: ADMIN_PRIVATE_PICTURES_MAX };

/** The columns of the console's fields that were sent (an edit leaves the others as they are). */
function columnsOf(input: AdminCharacterPatch): Partial<NewBotRow> {
  const values = sentColumns<AdminCharacterPatch, NewBotRow>(input, CONSOLE_EDIT_COLUMNS);
  if (input.tags !== undefined) values.tags = ownTags(input.tags);
  return values;
}

/**
 * What the admin console does with characters (modules/admin/characters.*): official
 * characters created and edited with every card field, their gallery, publishing, the review
 * of public custom characters, takedowns. The same validation, moderation and photo check as
 * the user's own forms (`BotsService`). The console runs each write and its audit record in
 * one transaction: `within(tx)` answers this service on that transaction.
 */
export class BotsManageService {
  private readonly bots: BotsService;

  constructor(private readonly deps: BotsServiceDeps) {
    this.bots = new BotsService(deps);
  }

  /**
   * The guest catalogue's cached pages are dropped on every replica. The console writes in a
   * transaction: the cache reads its version again once more after the commit (`settleMs`).
   */
  private catalogueChanged(): void {
    void this.deps.catalogue?.changed();
  }

  /** The same service reading and writing through `db` (the console's transaction). */
  within(db: Database): BotsManageService {
    return new BotsManageService({ ...this.deps, db });
  }

  /** Any character by id (a persona too; the console checks `kind`). */
  findBotById(id: string): Promise<BotRow | null> {
    return findBotById(this.deps.db, id);
  }

  /** Each character's gallery, in order, in one query whatever the number of characters. */
  listGalleries(botIds: string[]): Promise<Map<string, BotPictureRow[]>> {
    return listGalleries(this.deps.db, botIds);
  }

  /** A page of official or public custom characters, with the total. */
  listManagedBots(query: {
    scope: 'official' | 'public';
    search?: string;
    offset: number;
    limit: number;
  }): Promise<{ rows: BotRow[]; total: number }> {
    return listManagedBots(this.deps.db, query);
  }

  /** Public custom characters waiting for a review, oldest first. */
  listPendingReview(limit: number): Promise<BotRow[]> {
    return listPendingReview(this.deps.db, limit);
  }

  countPendingReview(): Promise<number> {
    return countPendingReview(this.deps.db);
  }

  private async refuseTakenSlug(slug: string | undefined, id: string | null): Promise<void> {
    if (slug && (await slugTakenByOther(this.deps.db, slug, id))) throw new AppError('slug_taken', { status: 409 });
  }

  /** Creates an official character (no author, approved; public or private as asked). */
  async createOfficialBot(input: AdminCharacterInput): Promise<BotRow> {
    this.catalogueChanged();
    const values = columnsOf(input);
    await this.bots.refuseInappropriateText(cardTexts(values));
    await this.refuseTakenSlug(input.slug, null);
    const id = randomUUID();
    const avatarKey = await this.bots.generatedAvatar(id, `${input.name}-${id}`, values.tags ?? []);
    try {
      return await insertBot(this.deps.db, {
        ...values,
        id,
        name: input.name,
        age: input.age,
        slug: input.slug || (await this.bots.uniqueSlug(input.name)),
        kind: 'character',
        voice:
          input.voice ??
          voiceForCharacter({ ...input, personality: input.personality_text || input.personality.join(', ') }),
        isOfficial: true,
        authorId: null,
        reviewState: 'approved',
        avatarKey,
      });
    } catch (error) {
      await this.deps.storage.delete(avatarKey).catch(() => {});
      throw error;
    }
  }

  /** A character's row, locked for this transaction's update; 404 when there is none. */
  async lockBot(id: string): Promise<BotRow> {
    // Every console write to a character locks it first: the guest catalogue is read again.
    this.catalogueChanged();
    const row = await findBotByIdForUpdate(this.deps.db, id);
    if (!row || row.kind !== 'character') throw notFound();
    return row;
  }

  /** Edits any card field of a character but its address (the moderation judges the texts as they will be). */
  async updateManagedBot(id: string, patch: AdminCharacterPatch): Promise<{ before: BotRow; after: BotRow }> {
    const before = await this.lockBot(id);
    const values = columnsOf(patch);
    // A character's address stays: links, chats and the seed (by slug) rely on it.
    if (values.slug !== undefined && values.slug !== before.slug) throw new AppError('slug_locked', { status: 409 });
    delete values.slug;
    await this.bots.refuseInappropriateText(cardTexts({ ...before, ...values }));
    const after = await updateBot(this.deps.db, id, values);
    return { before, after };
  }

  /**
   * Reads, judges and stores the picture of a Character Card (PNG or JSON, V1/V2/V3) to be an
   * official character; the caller writes its row (`insert`) in its own transaction.
   */
  prepareOfficialCard(file: Buffer, visibility: 'public' | 'private'): Promise<PreparedCardImport> {
    return this.bots.prepareCardImport(null, file, visibility);
  }

  /** Writes the row of a card `prepareOfficialCard` read (on this service's `db`: the console's transaction). */
  insertPreparedCard(prepared: PreparedCardImport): Promise<BotRow> {
    this.catalogueChanged();
    return prepared.insert(this.deps.db);
  }

  /** Publishes or unpublishes a character (public or private). */
  async setBotVisibility(id: string, visibility: 'public' | 'private'): Promise<{ before: BotRow; after: BotRow }> {
    const before = await this.lockBot(id);
    const after = await updateBot(this.deps.db, id, { visibility });
    return { before, after };
  }

  /**
   * An administrator takes a character out of public view. A custom one is also marked rejected
   * with the reason: its author sees why on the character, and making it public again sends it
   * back to the review queue instead of listing it at once. An official one only turns private.
   */
  async unpublishBot(id: string, reason: string): Promise<{ before: BotRow; after: BotRow }> {
    const before = await this.lockBot(id);
    const after = await updateBot(
      this.deps.db,
      id,
      before.isOfficial
        ? { visibility: 'private' }
        : { visibility: 'private', reviewState: 'rejected', reviewReason: reason },
    );
    return { before, after };
  }

  /**
   * An administrator's review of a pending public custom character: approved (listed under
   * Custom; its pictures count as reviewed) or rejected with the reason its author is told.
   * 409 `review_not_pending` when it no longer waits for one.
   */
  async decideReview(
    id: string,
    decision: { approve: true; reviewerId: string } | { approve: false; reviewerId: string; reason: string },
  ): Promise<{ before: BotRow; after: BotRow }> {
    const before = await this.lockBot(id);
    if (before.isOfficial || before.visibility !== 'public' || before.reviewState !== 'pending')
      throw new AppError('review_not_pending', { status: 409 });
    const now = new Date();
    const after = await updateBot(this.deps.db, id, {
      reviewState: decision.approve ? 'approved' : 'rejected',
      reviewReason: decision.approve ? null : decision.reason,
      reviewedAt: now,
      reviewedBy: decision.reviewerId,
      ...(decision.approve ? { picturesReviewedAt: now } : {}),
    });
    return { before, after };
  }

  /**
   * Stores an uploaded gallery picture (the bots module's photo check: a minor's face → 422);
   * answers its key and the judge's verdict. Official characters' explicit pictures are not held
   * for review, but they are marked explicit (blurred for guests, as every explicit picture).
   */
  async storeGalleryFile(botId: string, file: Buffer): Promise<{ key: string; explicit: boolean }> {
    return this.bots.storeBotPicture(botId, file);
  }

  /**
   * Adds a stored picture to a character's gallery (at the end, public; at most
   * `ADMIN_GALLERY_MAX` public pictures). The first picture of a gallery becomes the avatar.
   */
  async addGalleryPicture(
    botId: string,
    stored: { key: string; explicit: boolean },
  ): Promise<{ before: BotRow; after: BotRow; picture: BotPictureRow }> {
    const before = await this.lockBot(botId);
    const picture = { key: stored.key, explicit: stored.explicit, visibility: 'public' as const };
    return { before, ...(await addToGallery(this.deps.db, before, picture, CONSOLE_LIMITS, true)) };
  }

  /**
   * Removes a picture from the gallery (the caller deletes its file once committed). When it
   * was the avatar, the next picture becomes the avatar (none left: `needsAvatar`).
   */
  async removeGalleryPicture(
    botId: string,
    pictureId: string,
  ): Promise<{ before: BotRow; after: BotRow; picture: BotPictureRow; needsAvatar: boolean }> {
    const before = await this.lockBot(botId);
    return { before, ...(await removeFromGallery(this.deps.db, before, pictureId)) };
  }

  /** A character left without any picture gets a drawn one (as a new character does). */
  async giveDrawnAvatar(row: BotRow): Promise<void> {
    const key = await this.bots.generatedAvatar(row.id, `${row.name}-${randomUUID()}`, row.tags);
    this.catalogueChanged();
    await updateBot(this.deps.db, row.id, { avatarKey: key });
  }

  /** Puts the gallery in the given order (every picture's id, once). */
  async reorderGallery(botId: string, order: string[]): Promise<BotPictureRow[]> {
    const { db } = this.deps;
    await this.lockBot(botId);
    const gallery = await listGallery(db, botId);
    const ids = new Set(gallery.map((p) => p.id));
    if (order.length !== ids.size || new Set(order).size !== order.length || order.some((id) => !ids.has(id)))
      throw new AppError('validation_error', { status: 400, errors: { order: ['invalid_value'] } });
    for (const [position, id] of order.entries()) await setGalleryPosition(db, botId, id, position);
    return listGallery(db, botId);
  }

  /**
   * Makes one of the gallery's public pictures the avatar (a private one is refused, 409
   * `picture_private`: the avatar is shown everywhere, a private picture only in chat).
   */
  async chooseAvatar(botId: string, pictureId: string): Promise<{ before: BotRow; after: BotRow }> {
    const before = await this.lockBot(botId);
    const picture = (await listGallery(this.deps.db, botId)).find((p) => p.id === pictureId);
    if (!picture) throw notFound();
    if (picture.visibility === 'private') throw new AppError('picture_private', { status: 409 });
    const after = await updateBot(this.deps.db, botId, {
      avatarKey: picture.mediaKey,
      avatarUrl: `/api/media/${picture.mediaKey}`,
    });
    return { before, after };
  }

  /**
   * Makes a picture public (on the page) or private (sent in chat only). The avatar stays public
   * (409 `avatar_public`); each kind has its limit (409 `gallery_full`).
   */
  async setPictureVisibility(
    botId: string,
    pictureId: string,
    visibility: BotPictureRow['visibility'],
  ): Promise<{ before: BotRow; after: BotRow }> {
    const before = await this.lockBot(botId);
    await changePictureVisibility(this.deps.db, before, pictureId, visibility, CONSOLE_LIMITS);
    return { before, after: before };
  }

  /**
   * Deletes characters (their gallery rows, chats and messages go with them by cascade), on the
   * console's transaction; their files are under `characterFilePrefix` (deleted after the commit).
   */
  deleteCharacters(ids: string[]): Promise<number> {
    if (ids.length) this.catalogueChanged();
    return deleteCharacters(this.deps.db, ids);
  }
}
