import { isDeepStrictEqual } from 'node:util';
import type { Database } from '../../db/client.js';
import type { MediaStorage } from '../../providers/storage/index.js';
import { FIRST_PRIVATE_VARIANT, PRIVATE_PICTURE_COUNT, renderPicture } from './bot-pictures.js';
import {
  findBotsBySlugs,
  insertBot,
  insertGalleryPictures,
  listGallery,
  updateBot,
  updateBotMedia,
  type BotRow,
} from './bots.repository.js';
import { OFFICIAL_CHARACTERS, type OfficialCharacter } from './official-characters.js';
import { officialTranslations } from './official-translations/index.js';

export const GALLERY_SIZE = 3;
/** Official characters sort below anything created later; their order is the list's. */
const CATALOGUE_EPOCH = Date.UTC(2026, 0, 1);

const avatarKey = (id: string) => `bots/${id}/avatar.png`;
const galleryKey = (id: string, n: number) => `bots/${id}/gallery-${n}.png`;
const privateKey = (id: string, n: number) => `bots/${id}/private-${n}.png`;

function exampleDialogue(character: OfficialCharacter): string {
  return `<START>\n{{user}}: ${character.example[0]}\n{{char}}: ${character.example[1]}`;
}

/** Renders a picture into storage unless it is there already (pictures are a cache). */
async function ensurePicture(storage: MediaStorage, key: string, character: OfficialCharacter, variant: number) {
  if (await storage.exists(key)) return false;
  const gender = /\+m\d/.test(character.voice) ? 'm' : 'f';
  await storage.put(
    key,
    await renderPicture({ seed: character.slug, look: character.look, variant, gender }),
    'image/png',
  );
  return true;
}

/**
 * Inserts the official characters that are missing and renders their avatar, gallery (public,
 * on the page) and private pictures (sent in chat) into media storage when absent. Idempotent; an existing character is left as it is (edits,
 * pictures, avatar chosen in the admin console survive restarts) but for its translations, which
 * the seed writes again when they differ; prints progress through `log`.
 */
export async function seedOfficialCharacters(
  db: Database,
  storage: MediaStorage,
  log: (message: string) => void = () => {},
): Promise<{ inserted: number; pictures: number; drawPrivatePictures: () => Promise<number> }> {
  const existing = new Map(
    (
      await findBotsBySlugs(
        db,
        OFFICIAL_CHARACTERS.map((c) => c.slug),
      )
    ).map((row) => [row.slug, row]),
  );
  let inserted = 0;
  let pictures = 0;
  let done = 0;
  /** The private pictures whose files are drawn after the start (`drawPrivatePictures`). */
  const toDraw: { key: string; character: OfficialCharacter; variant: number }[] = [];
  for (const [index, character] of OFFICIAL_CHARACTERS.entries()) {
    let row = existing.get(character.slug);
    const fresh = !row;
    if (!row) {
      row = await insertBot(db, {
        slug: character.slug,
        name: character.name,
        age: character.age,
        kind: 'character',
        description: character.description,
        greeting: character.greeting,
        tags: [character.look],
        translations: officialTranslations(character.slug),
        isOfficial: true,
        visibility: 'public',
        reviewState: 'approved',
        voice: character.voice,
        occupation: character.occupation,
        personality: character.personality,
        personalityText: character.traits,
        scenario: character.scenario,
        exampleMessages: exampleDialogue(character),
        systemPrompt: `You are {{char}}, ${character.description} Stay in character, write vivid first-person replies, and remember that {{char}} and {{user}} are both adults.`,
        creator: 'Reverie',
        characterVersion: '1.0',
        sortOrder: index,
        createdAt: new Date(CATALOGUE_EPOCH - index * 60_000),
      });
      inserted++;
    }
    // The texts in the other languages are the seed's: written again whenever they changed
    // (docs/characters.md "Localization"); the English ones an administrator edits stay.
    const translations = officialTranslations(character.slug);
    if (!isDeepStrictEqual(row.translations, translations)) row = await updateBot(db, row.id, { translations });
    // The seed's own pictures are drawn again when missing from storage (a new volume), but
    // an avatar or a gallery an administrator changed in the console stays as it is.
    const key = avatarKey(row.id);
    row = await correctStyleTag(db, row, character, key);
    if (!row.avatarKey || row.avatarKey === key) {
      if (await ensurePicture(storage, key, character, 0)) pictures++;
      if (row.avatarKey !== key) await updateBotMedia(db, row.id, key, `/api/media/${key}`);
    }
    const gallery = await listGallery(db, row.id);
    const inGallery = new Set(gallery.map((p) => p.mediaKey));
    const keys = Array.from({ length: GALLERY_SIZE }, (_, n) => galleryKey(row.id, n + 1));
    for (const [n, galleryPicture] of keys.entries()) {
      if ((fresh || inGallery.has(galleryPicture)) && (await ensurePicture(storage, galleryPicture, character, n + 1)))
        pictures++;
    }
    if (fresh) await insertGalleryPictures(db, row.id, keys);
    // The private pictures she sends in chat (docs/pictures.md): given once to a character that
    // has none (a new one, or one seeded before they existed); redrawn when their file is missing.
    const privateKeys = Array.from({ length: PRIVATE_PICTURE_COUNT }, (_, n) => privateKey(row.id, n + 1));
    const givePrivate = !gallery.some((p) => p.visibility === 'private');
    for (const [n, key] of privateKeys.entries()) {
      if (givePrivate || inGallery.has(key)) toDraw.push({ key, character, variant: FIRST_PRIVATE_VARIANT + n });
    }
    if (givePrivate) await insertGalleryPictures(db, row.id, privateKeys, 'private', GALLERY_SIZE);
    done++;
    if (done % 10 === 0 || done === OFFICIAL_CHARACTERS.length)
      log(`characters ${progressBar(done, OFFICIAL_CHARACTERS.length)}`);
  }
  if (inserted) log(`seeded ${inserted} official character(s), rendered ${pictures} picture(s)`);
  // 12 private pictures a character are four times the page's: drawn after the server
  // listens (runtime.ts), not before. Until one is drawn, the chat skips it.
  const drawPrivatePictures = async () => {
    let drawn = 0;
    for (const { key, character, variant } of toDraw) {
      if (await ensurePicture(storage, key, character, variant)) drawn++;
    }
    if (drawn) log(`drew ${drawn} private picture(s) of the official characters`);
    return drawn;
  };
  return { inserted, pictures, drawPrivatePictures };
}

/**
 * Earlier seeds tagged the flat cartoon characters `realistic` (issue 26): a character that
 * still has the seed's drawn avatar gets the style tag of its art instead. One whose avatar
 * an administrator replaced keeps its tags (the new picture may well be realistic).
 */
async function correctStyleTag(db: Database, row: BotRow, character: OfficialCharacter, seedAvatar: string) {
  if (character.look === 'anime' || row.avatarKey !== seedAvatar || !row.tags.includes('realistic')) return row;
  const tags = [...new Set(row.tags.map((tag) => (tag === 'realistic' ? character.look : tag)))];
  return updateBot(db, row.id, { tags });
}

function progressBar(done: number, total: number): string {
  const width = 20;
  const filled = Math.round((done / total) * width);
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total}`;
}
