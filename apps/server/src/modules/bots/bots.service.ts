import { randomBytes, randomUUID } from 'node:crypto';
import sharp from 'sharp';
import {
  slugify,
  type BotCreate,
  type BotDetail,
  type BotFilterTag,
  type BotList,
  type BotMine,
  type BotPopularList,
  type CreatorPage,
  type Locale,
} from '@reverie/shared';
import type { SharedCache } from '../../providers/cache/index.js';
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
import { explicitPicturesBlurredFor, presentBot, presentBotDetail, presentMyBot } from './bots.presenter.js';
import { makeBlurredPreview } from '../pictures/index.js';
import { AUTHOR_EDIT_COLUMNS, ownTags } from './card-columns.js';
import { CachedPage, type CatalogueCache } from './catalogue-cache.js';
import { voiceForCharacter } from './character-voice.js';
import { localizeBot } from './localize.js';
import { hasSearchTerms, searchTerms, TEXT_SEARCH_CONFIG } from './search-terms.js';
import {
  blurredKeyOf,
  judgeUploadedPicture,
  refuseUnsafePicture,
  storeBlurredCopy,
  type PictureLog,
} from './explicit-pictures.js';
import {
  clearChatPersona,
  countChatsOfBots,
  findCreatorPage,
  findListedBotsByIds,
  listPopularSince,
  findBotById,
  findBotWithPicture,
  findPublicBotBySlug,
  findVisibleBotById,
  findVisibleBotBySlug,
  insertBot,
  listBotsByAuthor,
  listCatalogue,
  listGallery,
  searchCatalogue,
  searchQuery,
  searchWordCorrections,
  searchWordHints,
  slugExists,
  softDeleteBot,
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
  limiters?: { photos: WindowLimiter; submissions: WindowLimiter; creations?: WindowLimiter };
  /** The replicas' shared cache: "popular this week" is ranked once per POPULAR_CACHE_MS for all of them. */
  cache?: SharedCache;
}

/** How long one ranking of "popular this week" is shared before it is computed again. */
export const POPULAR_CACHE_MS = 10 * 60_000;
const POPULAR_KEY = 'bots:popular-week:v1';
const POPULAR_SIZE = 12;
const WEEK_MS = 7 * 24 * 3_600_000;

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

/** How deep a search's pages go (its ranking reads every match; nobody reads 500 results). */
const SEARCH_DEPTH = 500;

/**
 * Characters and personas (docs/characters.md): the catalogue, a character's page, the user's
 * own characters (create, card import and export, edit), the reads other modules make of a
 * character, and the photo check every character picture goes through.
 */
export class BotsService {
  /** The character's lorebook as edited (the lorebooks module, docs/lorebooks.md); null: the card's own. */
  private editedBook: ((botId: string) => Promise<Record<string, unknown> | null>) | null = null;

  constructor(private readonly deps: BotsServiceDeps) {}

  /** The lorebooks module gives cards their edited book (app.ts wires it once both exist). */
  useEditedBooks(source: (botId: string) => Promise<Record<string, unknown> | null>): void {
    this.editedBook = source;
  }

  /** The row a card is written from: its `character_book` the edited one, when there is one. */
  private async withEditedBook(row: BotRow): Promise<BotRow> {
    const book = this.editedBook ? await this.editedBook(row.id) : null;
    return book ? { ...row, characterBook: book } : row;
  }

  /**
   * One page of the catalogue (spec §4: 30 first, 15 after, through `next_param`) in the
   * reader's language. With a search (`q`), ranked results (`searchPage`).
   */
  async listAvailableBots(
    viewerId: string | null,
    query: { size: number; c?: string; tags: BotFilterTag[]; q?: string },
    locale: Locale = 'en',
  ): Promise<BotList> {
    if (query.q !== undefined) return this.searchPage(viewerId, { ...query, q: query.q }, locale);
    const key = decodeCursor(query.c, ['iso', 'uuid']);
    const after = key ? { createdAt: key[0], id: key[1] } : null;
    const rows = await listCatalogue(this.deps.db, {
      viewerId,
      tags: query.tags,
      limit: query.size + 1,
      after,
    });
    const page = rows.slice(0, query.size);
    const last = page.at(-1);
    return {
      results: page.map((row) => presentBot(localizeBot(row, locale), this.deps.urls, viewerId)),
      next_param: rows.length > query.size && last ? encodeCursor([last.cursorAt, last.id]) : null,
    };
  }

  /**
   * A search's page (docs/characters.md "Search"): full-text over names, tags, descriptions and
   * greetings in every language, best match first. When nothing matches and a word is unknown
   * to the catalogue, the search is made again with its closest known words (a typo). The
   * cursor holds the next offset (at most SEARCH_DEPTH results) and whether words were corrected.
   * A search with no letter or digit finds nothing.
   */
  private async searchPage(
    viewerId: string | null,
    query: { size: number; c?: string; tags: BotFilterTag[]; q: string },
    locale: Locale,
  ): Promise<BotList> {
    const [offset, corrected] = decodeCursor(query.c, ['int', 'int']) ?? [0, 0];
    const terms = searchTerms(query.q);
    if (!hasSearchTerms(terms) || offset >= SEARCH_DEPTH) return { results: [], next_param: null };
    const hints = await searchWordHints(this.deps.db, terms.words, TEXT_SEARCH_CONFIG[locale]);
    const size = Math.min(query.size, SEARCH_DEPTH - offset);
    const page = async (corrections: boolean) => {
      const tsquery = searchQuery(terms, hints, { corrections, prefix: true });
      const rankBy = searchQuery(terms, hints, { corrections, prefix: false });
      if (!tsquery || !rankBy) return [];
      return searchCatalogue(this.deps.db, {
        viewerId,
        tags: query.tags,
        query: tsquery,
        rankBy,
        offset,
        limit: size + 1,
      });
    };
    // A corrected search's next page looks its corrections up again; a new search only when it
    // finds nothing (the trigram look-up is the dearest part of a search).
    let corrections = corrected === 1 && (await searchWordCorrections(this.deps.db, hints));
    let rows = await page(corrections);
    if (rows.length === 0 && offset === 0 && !corrections && (await searchWordCorrections(this.deps.db, hints))) {
      corrections = true;
      rows = await page(true);
    }
    return {
      results: rows.slice(0, size).map((row) => presentBot(localizeBot(row, locale), this.deps.urls, viewerId)),
      next_param:
        rows.length > size && offset + size < SEARCH_DEPTH ? encodeCursor([offset + size, corrections ? 1 : 0]) : null,
    };
  }

  /** Whether guests' catalogue pages are cached (CATALOGUE_CACHE_S > 0). */
  get guestCatalogueCached(): boolean {
    return Boolean(this.deps.catalogue?.enabled);
  }

  /**
   * A guest's catalogue page in `locale`, as sent (JSON and its compressed copies), from the
   * shared cache (`CatalogueCache`); read from the database when no copy holds it.
   */
  guestCataloguePage(
    query: {
      size: number;
      c?: string;
      tags: BotFilterTag[];
      q?: string;
    },
    locale: Locale = 'en',
  ): Promise<CachedPage> | CachedPage {
    const compute = () => this.listAvailableBots(null, query, locale);
    if (!this.deps.catalogue) return compute().then((page) => new CachedPage(JSON.stringify(page)));
    const key = JSON.stringify([
      locale,
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

  /**
   * Counts one new character of the user (created, imported or duplicated): 429 with
   * Retry-After past CHARACTER_CREATIONS_PER_HOUR.
   */
  async takeCreation(userId: string): Promise<void> {
    const wait = (await this.deps.limiters?.creations?.take(userId)) ?? 0;
    if (wait > 0) throw rateLimited(wait);
  }

  /** Counts one public character sent to the review queue: 429 past CHARACTER_SUBMISSIONS_PER_DAY. */
  private async takeSubmission(userId: string): Promise<void> {
    const wait = (await this.deps.limiters?.submissions.take(userId)) ?? 0;
    if (wait > 0) throw rateLimited(wait);
  }

  /** A character's page (private ones only for their author); 404 otherwise. */
  async getBotDetail(slug: string, viewerId: string | null, locale: Locale = 'en'): Promise<BotDetail> {
    const row = await findVisibleBotBySlug(this.deps.db, slug, viewerId);
    if (!row) throw notFound();
    return presentBotDetail(
      localizeBot(row, locale),
      await listGallery(this.deps.db, row.id, 'public'),
      this.deps.urls,
      viewerId,
    );
  }

  /** The user's own characters and personas (My characters): state, chats and the people in them. */
  async listMyBots(userId: string, kind?: 'character' | 'persona'): Promise<BotMine[]> {
    const rows = await listBotsByAuthor(this.deps.db, userId, kind);
    const counts = await countChatsOfBots(
      this.deps.db,
      userId,
      rows.map((row) => row.id),
    );
    return rows.map((row) => presentMyBot(row, counts.get(row.id), this.deps.urls));
  }

  /**
   * Popular this week (Explore): the listed characters most people chatted with in the last 7
   * days. The ranking (ids and counts) is computed by one replica and shared through the cache
   * for POPULAR_CACHE_MS; the characters themselves are read fresh for the viewer, so one made
   * private or deleted since drops out at once.
   */
  async popularThisWeek(viewerId: string | null): Promise<BotPopularList> {
    const { db, cache } = this.deps;
    let ranking: { id: string; people: number }[] | null = null;
    const held = await cache?.get(POPULAR_KEY).catch(() => null);
    if (held) ranking = JSON.parse(held) as { id: string; people: number }[];
    if (!ranking) {
      ranking = await listPopularSince(db, new Date(Date.now() - WEEK_MS), POPULAR_SIZE);
      await cache?.set(POPULAR_KEY, JSON.stringify(ranking), POPULAR_CACHE_MS).catch(() => {});
    }
    const rows = new Map(
      (
        await findListedBotsByIds(
          db,
          ranking.map((r) => r.id),
        )
      ).map((row) => [row.id, row]),
    );
    return {
      results: ranking.flatMap(({ id, people }) => {
        const row = rows.get(id);
        return row ? [{ ...presentBot(row, this.deps.urls, viewerId), people_week: people }] : [];
      }),
    };
  }

  /**
   * A creator's page (`GET /api/creators/{id}`): their name and listed characters. 404 when the
   * creator hid it (Settings), is unknown or banned, or has no public character — so the
   * address tells nothing about an account that is not a creator.
   */
  async creatorPage(userId: string, viewerId: string | null): Promise<CreatorPage> {
    const page = await findCreatorPage(this.deps.db, userId, 200);
    if (!page || !page.rows.length) throw notFound();
    return {
      id: userId,
      name: page.name,
      results: page.rows.map((row) => presentBot(row, this.deps.urls, viewerId)),
    };
  }

  /** The author's own character or persona by slug (not deleted); 404 for anyone else's. */
  private async ownRow(authorId: string, slug: string): Promise<BotRow> {
    const row = await findVisibleBotBySlug(this.deps.db, slug, authorId);
    if (!row || row.authorId !== authorId || row.deletedAt) throw notFound();
    return row;
  }

  /**
   * The author deletes a character or persona (DELETE /api/bot/{slug}). It leaves the catalogue,
   * its page, the review queue and the author's lists at once; the chats people have with it
   * keep their history (the row stays, private, marked deleted). A deleted persona leaves the
   * chats that used it. 404 for anyone else's.
   */
  async deleteOwnBot(authorId: string, slug: string): Promise<void> {
    const row = await this.ownRow(authorId, slug);
    if (!(await softDeleteBot(this.deps.db, row.id, authorId))) throw notFound();
    if (row.kind === 'persona') await clearChatPersona(this.deps.db, row.id);
    if (row.visibility === 'public' && row.reviewState === 'approved') void this.deps.catalogue?.changed();
  }

  /**
   * A private copy of the author's character or persona (POST /api/bot/{slug}/duplicate): every
   * text and card field, the voice and a copy of the avatar; not its gallery, chats or review.
   */
  async duplicateOwnBot(authorId: string, slug: string): Promise<BotDetail> {
    const row = await this.ownRow(authorId, slug);
    await this.takeCreation(authorId);
    const id = randomUUID();
    let avatarKey: string | null = null;
    let explicit = false;
    const { storage } = this.deps;
    if (row.avatarKey) {
      const file = await storage.get(row.avatarKey);
      if (file) {
        const ext = row.avatarKey.split('.').pop() ?? 'webp';
        avatarKey = `bots/${id}/avatar-${randomBytes(4).toString('hex')}.${ext}`;
        await storage.put(avatarKey, file.data, file.contentType);
        const blurred = row.avatarExplicit ? await storage.get(blurredKeyOf(row.avatarKey)) : null;
        if (blurred) await storage.put(blurredKeyOf(avatarKey), blurred.data, blurred.contentType);
        explicit = row.avatarExplicit;
      }
    }
    if (!avatarKey) avatarKey = await this.generatedAvatar(id, `${row.name}-${id}`, row.tags);
    const {
      id: _id,
      slug: _slug,
      createdAt: _createdAt,
      updatedAt: _updatedAt,
      reviewedAt: _reviewedAt,
      reviewedBy: _reviewedBy,
      reviewReason: _reviewReason,
      picturesReviewedAt: _picturesReviewedAt,
      deletedAt: _deletedAt,
      sortOrder: _sortOrder,
      ...fields
    } = row;
    try {
      const copy = await insertBot(this.deps.db, {
        ...fields,
        id,
        slug: await this.uniqueSlug(row.name),
        visibility: 'private',
        reviewState: 'pending',
        avatarKey,
        avatarExplicit: explicit,
      });
      return presentBotDetail(copy, [], this.deps.urls, authorId);
    } catch (error) {
      await this.deleteAvatar(avatarKey);
      throw error;
    }
  }

  /**
   * The author changes the photo of their character or persona (PUT /api/bot/{slug}/photo): the
   * same check as at creation (a minor's face → 422, explicit → blurred for others until an
   * administrator reviews it again), then the old picture is removed. The review state follows
   * the rules of an edit (a rejected public character goes back to the queue).
   */
  async replaceOwnPhoto(authorId: string, slug: string, photo: Buffer): Promise<BotDetail> {
    const { db } = this.deps;
    const row = await this.ownRow(authorId, slug);
    const image = await sanitizeImage(photo);
    const avatar = await this.storeAvatar(row.id, image, photo);
    const values: Partial<NewBotRow> = { avatarKey: avatar.key, avatarExplicit: avatar.explicit };
    // A new explicit picture is blurred for others until reviewed again.
    if (avatar.explicit) values.picturesReviewedAt = null;
    if (row.visibility === 'public' && row.reviewState === 'rejected') {
      values.reviewState = 'pending';
      values.reviewReason = null;
    }
    let updated: BotRow;
    try {
      updated = await updateBot(db, row.id, values);
    } catch (error) {
      await this.deleteAvatar(avatar.key);
      throw error;
    }
    // The avatar drawn at seed or creation time (`avatar.png`) and any older photo go.
    if (row.avatarKey && row.avatarKey !== avatar.key) await this.deleteAvatar(row.avatarKey);
    if (row.visibility === 'public') void this.deps.catalogue?.changed();
    return presentBotDetail(updated, await listGallery(db, row.id, 'public'), this.deps.urls, authorId);
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
    await this.takeCreation(authorId);
    if (input.visibility === 'public') await this.takeSubmission(authorId);
    await this.refuseInappropriateText([
      input.name,
      input.description,
      input.greeting,
      input.scenario,
      input.example_messages,
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
        exampleMessages: input.example_messages,
        occupation: input.occupation,
        personality: input.personality,
        personalityText: input.personality.join(', '),
        // The author's choice, else a man speaks with a man's voice, a woman with a woman's (docs/voice.md).
        voice: input.voice ?? voiceForCharacter({ ...input, personality: input.personality.join(', ') }),
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
    await this.takeCreation(authorId);
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
          voice: fields.voice ?? voiceForCharacter({ ...fields, personality: fields.personalityText }),
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
    const row = await this.ownRow(authorId, slug);
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

  /** The card in the language the reader sees (`locale`); V3 also carries the other languages it can. */
  async exportCardJson(slug: string, viewerId: string | null, version: 'v2' | 'v3', locale: Locale = 'en') {
    const row = await this.withEditedBook(await this.visibleRow(slug, viewerId));
    const seen = localizeBot(row, locale);
    return version === 'v2' ? botToCardV2(seen) : botToCardV3(seen, row.description);
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
  async exportCardPng(
    slug: string,
    viewerId: string | null,
    locale: Locale = 'en',
  ): Promise<{ png: Buffer; row: BotRow }> {
    const own = await this.withEditedBook(await this.visibleRow(slug, viewerId));
    const row = localizeBot(own, locale);
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
    return {
      png: withTextChunks(base, { chara: b64(botToCardV2(row)), ccv3: b64(botToCardV3(row, own.description)) }),
      row,
    };
  }
}
