import { randomBytes, randomUUID } from 'node:crypto';
import sharp from 'sharp';
import type { Bot, BotCreate, BotDetail, BotFilterTag, BotList } from '@reverie/shared';
import type { Database } from '../../db/client.js';
import { decodeCursor, encodeCursor } from '../../lib/cursor.js';
import { AppError, notFound } from '../../lib/errors.js';
import { sanitizeImage } from '../../lib/images.js';
import type { MediaUrls } from '../../lib/media-urls.js';
import type { ModerationProvider } from '../../providers/moderation/index.js';
import type { ImageModeration } from '../../providers/image-moderation/index.js';
import type { MediaStorage } from '../../providers/storage/index.js';
import { renderPicture } from './bot-pictures.js';
import { botToCardV2, botToCardV3, cardToBotFields, CardFormatError, parseCardFile } from './card.js';
import { withTextChunks } from './card-png.js';
import { explicitPicturesBlurredFor, presentBot, presentBotDetail } from './bots.presenter.js';
import { makeBlurredPreview } from '../pictures/blur.js';
import { voiceForCharacter } from './character-voice.js';
import { blurredKeyOf, judgeUploadedPicture, storeBlurredCopy, type PictureLog } from './explicit-pictures.js';
import {
  findVisibleBotBySlug,
  insertBot,
  listBotsByAuthor,
  listCatalogue,
  listGallery,
  slugExists,
  type BotRow,
  type NewBotRow,
} from './bots.repository.js';

export interface BotsDeps {
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
}

/** Lower-case ASCII slug of a name; empty for names without Latin letters or digits. */
export function slugify(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/g, '');
}

/** A unique slug: the name's slug plus a short random suffix. */
export async function uniqueSlug(db: Database, name: string): Promise<string> {
  const base = slugify(name) || 'character';
  for (let i = 0; i < 5; i++) {
    const slug = `${base}-${randomBytes(4).toString('hex').slice(0, 6)}`;
    if (!(await slugExists(db, slug))) return slug;
  }
  return `${base}-${randomUUID().slice(0, 12)}`;
}

/** One page of the catalogue (spec §4: 30 first, 15 after, through `next_param`). */
export async function listAvailableBots(
  deps: BotsDeps,
  viewerId: string | null,
  query: { size: number; c?: string; tags: BotFilterTag[]; q?: string },
): Promise<BotList> {
  const key = decodeCursor(query.c, ['iso', 'uuid']);
  const after = key ? { createdAt: key[0], id: key[1] } : null;
  const rows = await listCatalogue(deps.db, {
    viewerId,
    tags: query.tags,
    search: query.q,
    limit: query.size + 1,
    after,
  });
  const page = rows.slice(0, query.size);
  const last = page.at(-1);
  return {
    results: page.map((row) => presentBot(row, deps.urls, viewerId)),
    next_param: rows.length > query.size && last ? encodeCursor([last.cursorAt, last.id]) : null,
  };
}

export async function getBotDetail(deps: BotsDeps, slug: string, viewerId: string | null): Promise<BotDetail> {
  const row = await findVisibleBotBySlug(deps.db, slug, viewerId);
  if (!row) throw notFound();
  return presentBotDetail(row, await listGallery(deps.db, row.id), deps.urls, viewerId);
}

export async function listMyBots(deps: BotsDeps, userId: string, kind?: 'character' | 'persona'): Promise<Bot[]> {
  return (await listBotsByAuthor(deps.db, userId, kind)).map((row) => presentBot(row, deps.urls, userId));
}

export async function refuseInappropriateText(moderation: ModerationProvider, texts: string[]): Promise<void> {
  const verdict = await moderation.checkText(texts.filter(Boolean).join('\n\n'));
  if (verdict.flagged) throw new AppError('inappropriate_content', { status: 422 });
}

/**
 * The photo check of every character picture (avatar, card import, the console's gallery):
 * judges the original bytes (face-age estimate, nudity, the moderation provider; a minor's
 * face → 422 before anything is stored), then stores the re-encoded copy under
 * `bots/<id>/<name>-<random>.webp` (and, when explicit, the blurred copy beside it).
 */
async function storeAvatar(
  deps: BotsDeps,
  botId: string,
  image: { data: Buffer; contentType: string },
  original: Buffer,
  name = 'avatar',
): Promise<{ key: string; explicit: boolean }> {
  const { explicit } = await judgeUploadedPicture(deps.imageModeration, original, deps.log);
  const key = `bots/${botId}/${name}-${randomBytes(4).toString('hex')}.webp`;
  await deps.storage.put(key, image.data, image.contentType);
  if (explicit) {
    try {
      await storeBlurredCopy(deps.storage, key, image.data);
    } catch (error) {
      await deps.storage.delete(key).catch(() => {});
      throw error;
    }
  }
  return { key, explicit };
}

async function deleteAvatar(deps: BotsDeps, key: string): Promise<void> {
  await Promise.all([deps.storage.delete(key), deps.storage.delete(blurredKeyOf(key))]).catch(() => {});
}

/** An uploaded picture of a character's gallery: sanitised, then the same photo check as an avatar. */
export async function storeBotPicture(
  deps: BotsDeps,
  botId: string,
  file: Buffer,
): Promise<{ key: string; explicit: boolean }> {
  return storeAvatar(deps, botId, await sanitizeImage(file), file, 'picture');
}

export async function generatedAvatar(deps: BotsDeps, botId: string, seed: string, tags: string[]): Promise<string> {
  const png = await renderPicture({ seed, look: tags.includes('realistic') ? 'realistic' : 'anime', variant: 0 });
  const key = `bots/${botId}/avatar.png`;
  await deps.storage.put(key, png, 'image/png');
  return key;
}

/**
 * The review state of a custom character that becomes public without having been judged by an
 * administrator: approved at once when MODERATION_AUTO_APPROVE is on and the provider judges
 * pictures, else pending.
 */
export function reviewStateFor(deps: BotsDeps, visibility: 'public' | 'private'): 'pending' | 'approved' {
  return visibility === 'public' && deps.autoApprove && deps.moderation.canAutoApprove ? 'approved' : 'pending';
}

/**
 * Creates a character or persona. A description presenting the character as a minor or a
 * photo the moderation provider flags is refused (422 "Inappropriate content").
 */
export async function createBot(
  deps: BotsDeps,
  authorId: string,
  input: BotCreate,
  photo: Buffer | null,
): Promise<BotDetail> {
  await refuseInappropriateText(deps.moderation, [
    input.name,
    input.description,
    input.greeting,
    input.scenario,
    ...input.occupation,
    ...input.personality,
  ]);
  const image = photo ? await sanitizeImage(photo) : null;
  const id = randomUUID();
  const tags = [...new Set(input.tags.filter((t) => t !== 'official' && t !== 'custom'))];
  const avatar =
    image && photo
      ? await storeAvatar(deps, id, image, photo)
      : { key: await generatedAvatar(deps, id, `${input.name}-${id}`, tags), explicit: false };
  const avatarKey = avatar.key;
  try {
    const row = await insertBot(deps.db, {
      id,
      slug: await uniqueSlug(deps.db, input.name),
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
      reviewState: reviewStateFor(deps, input.visibility),
      authorId,
      avatarKey,
      avatarExplicit: avatar.explicit,
    });
    return presentBotDetail(row, [], deps.urls, authorId);
  } catch (error) {
    await deleteAvatar(deps, avatarKey);
    throw error;
  }
}

/**
 * Imports a Character Card V1/V2/V3 (JSON or PNG) as the user's character (private unless
 * asked otherwise), or, with `authorId` null, as an official character (the admin console).
 */
export async function importBotCard(
  deps: BotsDeps,
  authorId: string | null,
  file: Buffer,
  visibility: 'public' | 'private' = 'private',
): Promise<BotDetail> {
  return presentBotDetail(await importCardRow(deps, authorId, file, visibility), [], deps.urls, authorId);
}

export async function importCardRow(
  deps: BotsDeps,
  authorId: string | null,
  file: Buffer,
  visibility: 'public' | 'private',
): Promise<BotRow> {
  const prepared = await prepareCardImport(deps, authorId, file, visibility);
  try {
    return await prepared.insert(deps.db);
  } catch (error) {
    await prepared.discard();
    throw error;
  }
}

/** A card read, judged and its picture stored: its row is written by `insert`, in the caller's transaction. */
export interface PreparedCardImport {
  insert(db: Database): Promise<BotRow>;
  /** Deletes the stored picture (the row was not written). */
  discard(): Promise<void>;
}

/**
 * The slow part of a card import, outside any transaction: the card parsed, its texts and
 * picture judged, the picture stored. The caller writes the row (with its own records, e.g. the
 * admin console's audit entry, in one transaction) and discards the picture when that fails.
 */
export async function prepareCardImport(
  deps: BotsDeps,
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
  await refuseInappropriateText(deps.moderation, [
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
    ? await storeAvatar(deps, id, image, file)
    : { key: await generatedAvatar(deps, id, `${fields.name}-${id}`, fields.tags ?? []), explicit: false };
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
        slug: await uniqueSlug(db, fields.name),
        visibility,
        reviewState: authorId === null ? 'approved' : reviewStateFor(deps, visibility),
        isOfficial: authorId === null,
        authorId,
        avatarKey: avatar.key,
        avatarExplicit: avatar.explicit,
      }),
    discard: () => deleteAvatar(deps, avatar.key),
  };
}

async function visibleRow(deps: BotsDeps, slug: string, viewerId: string | null): Promise<BotRow> {
  const row = await findVisibleBotBySlug(deps.db, slug, viewerId);
  if (!row) throw notFound();
  return row;
}

export async function exportCardJson(deps: BotsDeps, slug: string, viewerId: string | null, version: 'v2' | 'v3') {
  const row = await visibleRow(deps, slug, viewerId);
  return version === 'v2' ? botToCardV2(row) : botToCardV3(row);
}

/**
 * The avatar a card carries: the original, or for a held explicit picture its stored blurred
 * copy (made once and kept when missing, as the media route does), never a new blur per export.
 */
async function cardPicture(deps: BotsDeps, key: string, held: boolean): Promise<{ data: Buffer } | null> {
  if (!held) return deps.storage.get(key);
  const blurred = await deps.storage.get(blurredKeyOf(key));
  if (blurred) return blurred;
  const original = await deps.storage.get(key);
  if (!original) return null;
  const data = await makeBlurredPreview(original.data);
  await deps.storage.put(blurredKeyOf(key), data, 'image/webp').catch(() => {});
  return { data };
}

/** The card as PNG: the avatar with `chara` (V2) and `ccv3` (V3) tEXt chunks, base64 JSON. */
export async function exportCardPng(
  deps: BotsDeps,
  slug: string,
  viewerId: string | null,
): Promise<{ png: Buffer; row: BotRow }> {
  const row = await visibleRow(deps, slug, viewerId);
  // An explicit picture leaves in a card blurred whenever the viewer would see it blurred: the
  // stored blurred copy, never blurred again per export.
  const held = row.avatarExplicit && explicitPicturesBlurredFor(row, viewerId);
  const stored = row.avatarKey ? await cardPicture(deps, row.avatarKey, held) : null;
  const base = stored
    ? await sharp(stored.data).png().toBuffer()
    : await renderPicture({ seed: row.slug, look: row.tags.includes('realistic') ? 'realistic' : 'anime', variant: 0 });
  const b64 = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64');
  return { png: withTextChunks(base, { chara: b64(botToCardV2(row)), ccv3: b64(botToCardV3(row)) }), row };
}
