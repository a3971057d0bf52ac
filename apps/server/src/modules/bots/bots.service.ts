import { randomBytes, randomUUID } from 'node:crypto';
import sharp from 'sharp';
import type { Bot, BotCreate, BotDetail, BotFilterTag, BotList } from '@reverie/shared';
import type { Database } from '../../db/client.js';
import { decodeCursor, encodeCursor } from '../../lib/cursor.js';
import { AppError, notFound } from '../../lib/errors.js';
import { sanitizeImage } from '../../lib/images.js';
import type { MediaUrls } from '../../lib/media-urls.js';
import type { ModerationProvider } from '../../providers/moderation/index.js';
import type { MediaStorage } from '../../providers/storage/index.js';
import { renderPicture } from './bot-pictures.js';
import { botToCardV2, botToCardV3, cardToBotFields, CardFormatError, parseCardFile } from './card.js';
import { withTextChunks } from './card-png.js';
import { presentBot, presentBotDetail } from './bots.presenter.js';
import { voiceForCharacter } from './character-voice.js';
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
  urls: MediaUrls;
  /** Publish public custom characters without an administrator when moderation passes them. */
  autoApprove: boolean;
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
async function uniqueSlug(db: Database, name: string): Promise<string> {
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
    results: page.map((row) => presentBot(row, deps.urls)),
    next_param: rows.length > query.size && last ? encodeCursor([last.cursorAt, last.id]) : null,
  };
}

export async function getBotDetail(deps: BotsDeps, slug: string, viewerId: string | null): Promise<BotDetail> {
  const row = await findVisibleBotBySlug(deps.db, slug, viewerId);
  if (!row) throw notFound();
  return presentBotDetail(row, await listGallery(deps.db, row.id), deps.urls);
}

export async function listMyBots(deps: BotsDeps, userId: string, kind?: 'character' | 'persona'): Promise<Bot[]> {
  return (await listBotsByAuthor(deps.db, userId, kind)).map((row) => presentBot(row, deps.urls));
}

async function refuseInappropriateText(moderation: ModerationProvider, texts: string[]): Promise<void> {
  const verdict = await moderation.checkText(texts.filter(Boolean).join('\n\n'));
  if (verdict.flagged) throw new AppError('inappropriate_content', { status: 422 });
}

/**
 * The photo check of user pictures (a character's or persona's photo, a style transform's
 * upload): a picture the moderation provider flags is refused with 422 "Inappropriate
 * content". `image` is already sanitised (lib/images.ts `sanitizeImage`).
 */
export async function checkUserPhoto(
  moderation: ModerationProvider,
  image: { data: Buffer; contentType: string },
): Promise<void> {
  const verdict = await moderation.checkImage(image.data, image.contentType);
  if (verdict.flagged) throw new AppError('inappropriate_content', { status: 422 });
}

async function storeAvatar(
  deps: BotsDeps,
  botId: string,
  image: { data: Buffer; contentType: string },
): Promise<string> {
  await checkUserPhoto(deps.moderation, image);
  const key = `bots/${botId}/avatar-${randomBytes(4).toString('hex')}.webp`;
  await deps.storage.put(key, image.data, image.contentType);
  return key;
}

async function generatedAvatar(deps: BotsDeps, botId: string, seed: string, tags: string[]): Promise<string> {
  const png = await renderPicture({ seed, look: tags.includes('realistic') ? 'realistic' : 'anime', variant: 0 });
  const key = `bots/${botId}/avatar.png`;
  await deps.storage.put(key, png, 'image/png');
  return key;
}

function reviewStateFor(deps: BotsDeps, visibility: 'public' | 'private'): 'pending' | 'approved' {
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
  const avatarKey = image
    ? await storeAvatar(deps, id, image)
    : await generatedAvatar(deps, id, `${input.name}-${id}`, tags);
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
    });
    return presentBotDetail(row, [], deps.urls);
  } catch (error) {
    await deps.storage.delete(avatarKey).catch(() => {});
    throw error;
  }
}

/** Imports a Character Card V1/V2/V3 (JSON or PNG) as the user's private character. */
export async function importBotCard(
  deps: BotsDeps,
  authorId: string,
  file: Buffer,
  visibility: 'public' | 'private' = 'private',
): Promise<BotDetail> {
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
  const image = isPngFile ? await sanitizeImage(file).catch(() => null) : null;
  const avatarKey = image
    ? await storeAvatar(deps, id, image)
    : await generatedAvatar(deps, id, `${fields.name}-${id}`, fields.tags ?? []);
  const row = await insertBot(deps.db, {
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
    slug: await uniqueSlug(deps.db, fields.name),
    visibility,
    reviewState: reviewStateFor(deps, visibility),
    isOfficial: false,
    authorId,
    avatarKey,
  });
  return presentBotDetail(row, [], deps.urls);
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

/** The card as PNG: the avatar with `chara` (V2) and `ccv3` (V3) tEXt chunks, base64 JSON. */
export async function exportCardPng(
  deps: BotsDeps,
  slug: string,
  viewerId: string | null,
): Promise<{ png: Buffer; row: BotRow }> {
  const row = await visibleRow(deps, slug, viewerId);
  const stored = row.avatarKey ? await deps.storage.get(row.avatarKey) : null;
  const base = stored
    ? await sharp(stored.data).png().toBuffer()
    : await renderPicture({ seed: row.slug, look: row.tags.includes('realistic') ? 'realistic' : 'anime', variant: 0 });
  const b64 = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64');
  return { png: withTextChunks(base, { chara: b64(botToCardV2(row)), ccv3: b64(botToCardV3(row)) }), row };
}
