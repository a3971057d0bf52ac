import { randomBytes, randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { slugify, type Bot, type BotCreate, type BotDetail, type BotFilterTag, type BotList } from '@reverie/shared';
import type { Database } from '../../db/client.js';
import { decodeCursor, encodeCursor } from '../../lib/cursor.js';
import { AppError, notFound } from '../../lib/errors.js';
import { sanitizeImage } from '../../lib/images.js';
import { sentColumns } from '../../lib/patch.js';
import type { MediaUrls } from '../../lib/media-urls.js';
import type { ModerationProvider } from '../../providers/moderation/index.js';
import type { ImageModeration } from '../../providers/image-moderation/index.js';
import type { MediaStorage } from '../../providers/storage/index.js';
import type { WindowLimiter } from '../../providers/limits/index.js';
import { pictureLook, renderPicture } from './bot-pictures.js';
import { botToCardV2, botToCardV3, cardToBotFields, CardFormatError, parseCardFile } from './card.js';
import { withTextChunks } from './card-png.js';
import { explicitPicturesBlurredFor, presentBot, presentBotDetail } from './bots.presenter.js';
import { makeBlurredPreview } from '../pictures/index.js';
import { AUTHOR_EDIT_COLUMNS, ownTags } from './card-columns.js';
import { CachedPage, type CatalogueCache } from './catalogue-cache.js';
import { voiceForCharacter } from './character-voice.js';
import {
  blurredKeyOf,
  judgeUploadedPicture,
  refuseUnsafePicture,
  storeBlurredCopy,
  type PictureLog,
} from './explicit-pictures.js';
import {
  findBotById,
  findBotWithPicture,
  findPublicBotBySlug,
  findVisibleBotById,
  findVisibleBotBySlug,
  insertBot,
  listBotsByAuthor,
  listCatalogue,
  listGallery,
  slugExists,
  updateBot,
  type BotRow,
  type NewBotRow,
} from './bots.repository.js';

/** What the bots module's services are built from (`botsModule` passes the app's providers). */
export interface BotsServiceDeps {
  db: Database;
  storage: MediaStorage;
  moderation: ModerationProvider;
  /** Judges every uploaded picture (face-age estimate, nudity; docs/moderation.md). */
  imageModeration: ImageModeration;
  urls: MediaUrls;
  /** Publish public custom characters without an administrator when moderation passes them. */
  autoApprove: boolean;
  /** Where picture judgements are logged (no personal data). */
  log?: PictureLog;
  /** The guest catalogue's shared cache (told of every change to a listed character). */
  catalogue?: CatalogueCache;
  /** Per user, for the cluster: picture uploads per hour and public characters sent for review per day. */
  limiters?: { photos: WindowLimiter; submissions: WindowLimiter };
}

const rateLimited = (seconds: number) =>
  new AppError('rate_limited', { status: 429, headers: { 'retry-after': String(seconds) } });

/** The texts of a character the moderation judges (a minor in any of them is refused). */
export function cardTexts(row: Partial<NewBotRow>): string[] {
  return [
    row.name ?? '',
    row.description ?? '',
    row.greeting ?? '',
    ...(row.alternateGreetings ?? []),
    row.personalityText ?? '',
    row.scenario ?? '',
    row.exampleMessages ?? '',
    row.systemPrompt ?? '',
    row.postHistoryInstructions ?? '',
    ...(row.occupation ?? []),
    ...(row.personality ?? []),
  ];
}

/** A card read, judged and its picture stored: its row is written by `insert`, in the caller's transaction. */
export interface PreparedCardImport {
  insert(db: Database): Promise<BotRow>;
  /** Deletes the stored picture (the row was not written). */
  discard(): Promise<void>;
}

/**
 * Characters and personas (docs/characters.md): the catalogue, a character's page, the user's
 * own characters (create, card import and export, edit), the reads other modules make of a
 * character, and the photo check every character picture goes through.
 */
export class BotsService {
  constructor(private readonly deps: BotsServiceDeps) {}

  /** One page of the catalogue (spec §4: 30 first, 15 after, through `next_param`). */
  async listAvailableBots(
    viewerId: string | null,
    query: { size: number; c?: string; tags: BotFilterTag[]; q?: string },
  ): Promise<BotList> {
    const key = decodeCursor(query.c, ['iso', 'uuid']);
    const after = key ? { createdAt: key[0], id: key[1] } : null;
    const rows = await listCatalogue(this.deps.db, {
      viewerId,
      tags: query.tags,
      search: query.q,
      limit: query.size + 1,
      after,
    });
    const page = rows.slice(0, query.size);
    const last = page.at(-1);
    return {
      results: page.map((row) => presentBot(row, this.deps.urls, viewerId)),
      next_param: rows.length > query.size && last ? encodeCursor([last.cursorAt, last.id]) : null,
    };
  }

  /** Whether guests' catalogue pages are cached (CATALOGUE_CACHE_S > 0). */
  get guestCatalogueCached(): boolean {
    return Boolean(this.deps.catalogue?.enabled);
  }

  /**
   * A guest's catalogue page, as sent (JSON and its compressed copies), from the shared cache
   * (`CatalogueCache`); read from the database when no copy holds it.
   */
  guestCataloguePage(query: {
    size: number;
    c?: string;
    tags: BotFilterTag[];
    q?: string;
  }): Promise<CachedPage> | CachedPage {
    const compute = () => this.listAvailableBots(null, query);
    if (!this.deps.catalogue) return compute().then((page) => new CachedPage(JSON.stringify(page)));
    const key = JSON.stringify([
      query.size,
      query.c ?? '',
      [...query.tags].sort(),
      (query.q ?? '').trim().toLowerCase(),
    ]);
    return this.deps.catalogue.page(key, compute);
  }

  /**
   * Counts one picture upload of the user (creation with a photo, a card import): 429 with
   * Retry-After past CHARACTER_PHOTOS_PER_HOUR. Called before the upload is read.
   */
  async takePhotoUpload(userId: string): Promise<void> {
    const wait = (await this.deps.limiters?.photos.take(userId)) ?? 0;
    if (wait > 0) throw rateLimited(wait);
  }

  /** Counts one public character sent to the review queue: 429 past CHARACTER_SUBMISSIONS_PER_DAY. */
  private async takeSubmission(userId: string): Promise<void> {
    const wait = (await this.deps.limiters?.submissions.take(userId)) ?? 0;
    if (wait > 0) throw rateLimited(wait);
  }

  /** A character's page (private ones only for their author); 404 otherwise. */
  async getBotDetail(slug: string, viewerId: string | null): Promise<BotDetail> {
    const row = await findVisibleBotBySlug(this.deps.db, slug, viewerId);
    if (!row) throw notFound();
    return presentBotDetail(row, await listGallery(this.deps.db, row.id, 'public'), this.deps.urls, viewerId);
  }

  async listMyBots(userId: string, kind?: 'character' | 'persona'): Promise<Bot[]> {
    return (await listBotsByAuthor(this.deps.db, userId, kind)).map((row) => presentBot(row, this.deps.urls, userId));
  }

  /** Any character by id, whoever may see it (the caller decides). */
  findBotById(id: string): Promise<BotRow | null> {
    return findBotById(this.deps.db, id);
  }

  /** A character by id if the viewer may see it (listed, or the viewer's own). */
  findVisibleBotById(id: string, viewerId: string | null): Promise<BotRow | null> {
    return findVisibleBotById(this.deps.db, id, viewerId);
  }

  /** A character by slug if the viewer may see it (listed, or the viewer's own). */
  findVisibleBotBySlug(slug: string, viewerId: string | null): Promise<BotRow | null> {
    return findVisibleBotBySlug(this.deps.db, slug, viewerId);
  }

  /** A listed character by slug, for pages anyone may see (and their link previews). */
  findPublicBotBySlug(slug: string): Promise<BotRow | null> {
    return findPublicBotBySlug(this.deps.db, slug);
  }

  /**
   * A character and whether one of its pictures (avatar or gallery, by key) was judged
   * explicit and is private (the media route asks it on every picture request).
   */
  findBotWithPicture(botId: string, key: string): Promise<{ bot: BotRow; explicit: boolean; private: boolean } | null> {
    return findBotWithPicture(this.deps.db, botId, key);
  }

  /** Stores an explicit picture's blurred copy beside it (`blurredKeyOf`). */
  storeBlurredCopy(key: string, data: Buffer): Promise<void> {
    return storeBlurredCopy(this.deps.storage, key, data);
  }

  /**
   * The check of a picture that may be neither a minor's nor explicit (a style transform's
   * photo, PRODUCT.md §1): either verdict → 422 "Inappropriate content"; no verdict → 503.
   */
  refuseUnsafePicture(bytes: Buffer): Promise<void> {
    return refuseUnsafePicture(this.deps.imageModeration, bytes, this.deps.log);
  }

  /** A description presenting the character as a minor (or otherwise flagged) → 422 "Inappropriate content". */
  async refuseInappropriateText(texts: string[]): Promise<void> {
    const verdict = await this.deps.moderation.checkText(texts.filter(Boolean).join('\n\n'));
    if (verdict.flagged) throw new AppError('inappropriate_content', { status: 422 });
  }

  /** A unique slug: the name's slug plus a short random suffix (`db` may be the caller's transaction). */
  async uniqueSlug(name: string, db: Database = this.deps.db): Promise<string> {
    const base = slugify(name, 60) || 'character';
    for (let i = 0; i < 5; i++) {
      const slug = `${base}-${randomBytes(4).toString('hex').slice(0, 6)}`;
      if (!(await slugExists(db, slug))) return slug;
    }
    return `${base}-${randomUUID().slice(0, 12)}`;
  }

  /**
   * The photo check of every character picture (avatar, card import, the console's gallery):
   * judges the original bytes (face-age estimate, nudity, the moderation provider; a minor's
   * face → 422 before anything is stored), then stores the re-encoded copy under
   * `bots/<id>/<name>-<random>.webp` (and, when explicit, the blurred copy beside it).
   */
  private async storeAvatar(
    botId: string,
    image: { data: Buffer; contentType: string },
    original: Buffer,
    name = 'avatar',
  ): Promise<{ key: string; explicit: boolean }> {
    const { storage } = this.deps;
    const { explicit } = await judgeUploadedPicture(this.deps.imageModeration, original, this.deps.log);
    const key = `bots/${botId}/${name}-${randomBytes(4).toString('hex')}.webp`;
    await storage.put(key, image.data, image.contentType);
    if (explicit) {
      try {
        await storeBlurredCopy(storage, key, image.data);
      } catch (error) {
        await storage.delete(key).catch(() => {});
        throw error;
      }
    }
    return { key, explicit };
  }

  private async deleteAvatar(key: string): Promise<void> {
    const { storage } = this.deps;
    await Promise.all([storage.delete(key), storage.delete(blurredKeyOf(key))]).catch(() => {});
  }

  /** An uploaded picture of a character's gallery: sanitised, then the same photo check as an avatar. */
  async storeBotPicture(botId: string, file: Buffer): Promise<{ key: string; explicit: boolean }> {
    return this.storeAvatar(botId, await sanitizeImage(file), file, 'picture');
  }

  /** Draws a picture for a character without one and stores it as `bots/<id>/avatar.png`; answers its key. */
  async generatedAvatar(botId: string, seed: string, tags: string[]): Promise<string> {
    const png = await renderPicture({ seed, look: pictureLook(tags), variant: 0 });
    const key = `bots/${botId}/avatar.png`;
    await this.deps.storage.put(key, png, 'image/png');
    return key;
  }

  /**
   * The review state of a custom character that becomes public without having been judged by an
   * administrator: approved at once when MODERATION_AUTO_APPROVE is on and the provider judges
   * pictures, else pending.
   */
  reviewStateFor(visibility: 'public' | 'private'): 'pending' | 'approved' {
    return visibility === 'public' && this.deps.autoApprove && this.deps.moderation.canAutoApprove
      ? 'approved'
      : 'pending';
  }

  /**
   * Creates a character or persona. A description presenting the character as a minor or a
   * photo the moderation provider flags is refused (422 "Inappropriate content").
   */
  async createBot(authorId: string, input: BotCreate, photo: Buffer | null): Promise<BotDetail> {
    const { db } = this.deps;
    if (input.visibility === 'public') await this.takeSubmission(authorId);
    await this.refuseInappropriateText([
      input.name,
      input.description,
      input.greeting,
      input.scenario,
      ...input.occupation,
      ...input.personality,
    ]);
    const image = photo ? await sanitizeImage(photo) : null;
    const id = randomUUID();
    const tags = ownTags(input.tags);
    const avatar =
      image && photo
        ? await this.storeAvatar(id, image, photo)
        : { key: await this.generatedAvatar(id, `${input.name}-${id}`, tags), explicit: false };
    const avatarKey = avatar.key;
    try {
      const row = await insertBot(db, {
        id,
        slug: await this.uniqueSlug(input.name),
        name: input.name,
        age: input.age,
        kind: input.kind,
        description: input.description,
        greeting: input.greeting,
        scenario: input.scenario,
        occupation: input.occupation,
        personality: input.personality,
        personalityText: input.personality.join(', '),
        // A man speaks with a man's voice, a woman with a woman's (docs/voice.md).
        voice: voiceForCharacter({
          description: input.description,
          greeting: input.greeting,
          scenario: input.scenario,
          personality: input.personality.join(', '),
        }),
        tags,
        visibility: input.visibility,
        reviewState: this.reviewStateFor(input.visibility),
        authorId,
        avatarKey,
        avatarExplicit: avatar.explicit,
      });
      if (row.visibility === 'public' && row.reviewState === 'approved') void this.deps.catalogue?.changed();
      return presentBotDetail(row, [], this.deps.urls, authorId);
    } catch (error) {
      await this.deleteAvatar(avatarKey);
      throw error;
    }
  }

  /**
   * Imports a Character Card V1/V2/V3 (JSON or PNG) as the user's character (private unless
   * asked otherwise).
   */
  async importBotCard(
    authorId: string,
    file: Buffer,
    visibility: 'public' | 'private' = 'private',
  ): Promise<BotDetail> {
    if (visibility === 'public') await this.takeSubmission(authorId);
    const prepared = await this.prepareCardImport(authorId, file, visibility);
    let row: BotRow;
    try {
      row = await prepared.insert(this.deps.db);
    } catch (error) {
      await prepared.discard();
      throw error;
    }
    if (row.visibility === 'public' && row.reviewState === 'approved') void this.deps.catalogue?.changed();
    return presentBotDetail(row, [], this.deps.urls, authorId);
  }

  /**
   * The slow part of a card import, outside any transaction: the card parsed, its texts and
   * picture judged, the picture stored. The caller writes the row (with its own records, e.g. the
   * admin console's audit entry, in one transaction) and discards the picture when that fails.
   * `authorId` null: an official character (the admin console).
   */
  async prepareCardImport(
    authorId: string | null,
    file: Buffer,
    visibility: 'public' | 'private',
  ): Promise<PreparedCardImport> {
    let fields: Omit<NewBotRow, 'slug'>;
    try {
      fields = cardToBotFields(parseCardFile(file));
    } catch (error) {
      if (error instanceof CardFormatError) throw new AppError('invalid_card', { status: 400, detail: error.message });
      throw error;
    }
    await this.refuseInappropriateText([
      fields.name,
      fields.description ?? '',
      fields.personalityText ?? '',
      fields.scenario ?? '',
      fields.greeting ?? '',
    ]);
    const id = randomUUID();
    const isPngFile = file.subarray(0, 4).toString('latin1') === '\x89PNG';
    // The card's picture is judged like any upload (a PNG whose picture sharp cannot read gets a drawn one).
    const image = isPngFile ? await sanitizeImage(file).catch(() => null) : null;
    const avatar = image
      ? await this.storeAvatar(id, image, file)
      : { key: await this.generatedAvatar(id, `${fields.name}-${id}`, fields.tags ?? []), explicit: false };
    return {
      insert: async (db) =>
        insertBot(db, {
          ...fields,
          // A card exported by a Reverie server names its voice; other cards get one fitting the character.
          voice:
            fields.voice ??
            voiceForCharacter({
              description: fields.description,
              greeting: fields.greeting,
              scenario: fields.scenario,
              personality: fields.personalityText,
            }),
          id,
          slug: await this.uniqueSlug(fields.name, db),
          visibility,
          reviewState: authorId === null ? 'approved' : this.reviewStateFor(visibility),
          isOfficial: authorId === null,
          authorId,
          avatarKey: avatar.key,
          avatarExplicit: avatar.explicit,
        }),
      discard: () => this.deleteAvatar(avatar.key),
    };
  }

  /**
   * The author edits their own character (PATCH /api/bot/{slug}): the texts, age, tags and
   * visibility, judged by the moderation as at creation. A rejected character kept or made
   * public goes back to the review queue (pending), its old reason cleared; a private one made
   * public waits for a review unless it was approved before. Answers the character as saved.
   */
  async updateOwnBot(authorId: string, slug: string, patch: Partial<BotCreate>): Promise<BotDetail> {
    const { db } = this.deps;
    const row = await findVisibleBotBySlug(db, slug, authorId);
    if (!row || row.authorId !== authorId) throw notFound();
    const values = sentColumns<Partial<BotCreate>, NewBotRow>(patch, AUTHOR_EDIT_COLUMNS);
    if (patch.personality !== undefined) {
      values.personality = patch.personality;
      values.personalityText = patch.personality.join(', ');
    }
    if (patch.tags !== undefined) values.tags = ownTags(patch.tags);
    const visibility = values.visibility ?? row.visibility;
    // Made public, or a rejected one kept public: it goes (back) to the review queue.
    if (visibility === 'public' && (row.visibility === 'private' || row.reviewState === 'rejected'))
      await this.takeSubmission(authorId);
    await this.refuseInappropriateText(cardTexts({ ...row, ...values }));
    if (visibility === 'public' && row.reviewState === 'rejected') {
      values.reviewState = 'pending';
      values.reviewReason = null;
    }
    // A private character made public waits for a review unless it had one already; with
    // MODERATION_AUTO_APPROVE it is published at once like a new public character — but never
    // one an administrator rejected or unpublished: that one waits for a person.
    if (visibility === 'public' && row.visibility === 'private' && row.reviewState !== 'approved')
      values.reviewState = row.reviewState === 'rejected' ? 'pending' : this.reviewStateFor('public');
    // A rejected public character its author takes private is not one an administrator
    // unpublished (private and rejected, shown to the author with the reason): it waits, like
    // any private character never approved, for a review once made public again.
    if (visibility === 'private' && row.visibility === 'public' && row.reviewState === 'rejected') {
      values.reviewState = 'pending';
      values.reviewReason = null;
    }
    const updated = await updateBot(db, row.id, values);
    void this.deps.catalogue?.changed();
    const fresh = (await findBotById(db, updated.id)) ?? updated;
    return presentBotDetail(fresh, await listGallery(db, updated.id, 'public'), this.deps.urls);
  }

  private async visibleRow(slug: string, viewerId: string | null): Promise<BotRow> {
    const row = await findVisibleBotBySlug(this.deps.db, slug, viewerId);
    if (!row) throw notFound();
    return row;
  }

  async exportCardJson(slug: string, viewerId: string | null, version: 'v2' | 'v3') {
    const row = await this.visibleRow(slug, viewerId);
    return version === 'v2' ? botToCardV2(row) : botToCardV3(row);
  }

  /**
   * The avatar a card carries: the original, or for a held explicit picture its stored blurred
   * copy (made once and kept when missing, as the media route does), never a new blur per export.
   */
  private async cardPicture(key: string, held: boolean): Promise<{ data: Buffer } | null> {
    const { storage } = this.deps;
    if (!held) return storage.get(key);
    const blurred = await storage.get(blurredKeyOf(key));
    if (blurred) return blurred;
    const original = await storage.get(key);
    if (!original) return null;
    const data = await makeBlurredPreview(original.data);
    await storage.put(blurredKeyOf(key), data, 'image/webp').catch(() => {});
    return { data };
  }

  /** The card as PNG: the avatar with `chara` (V2) and `ccv3` (V3) tEXt chunks, base64 JSON. */
  async exportCardPng(slug: string, viewerId: string | null): Promise<{ png: Buffer; row: BotRow }> {
    const row = await this.visibleRow(slug, viewerId);
    // An explicit picture leaves in a card blurred whenever the viewer would see it blurred: the
    // stored blurred copy, never blurred again per export.
    const held = row.avatarExplicit && explicitPicturesBlurredFor(row, viewerId);
    const stored = row.avatarKey ? await this.cardPicture(row.avatarKey, held) : null;
    const base = stored
      ? await sharp(stored.data).png().toBuffer()
      : await renderPicture({
          seed: row.slug,
          look: pictureLook(row.tags),
          variant: 0,
        });
    const b64 = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64');
    return { png: withTextChunks(base, { chara: b64(botToCardV2(row)), ccv3: b64(botToCardV3(row)) }), row };
  }
}
