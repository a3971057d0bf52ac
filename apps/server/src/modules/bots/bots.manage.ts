import { randomUUID } from 'node:crypto';
import type { AdminCharacterInput, AdminCharacterPatch, BotCreate } from '@reverie/shared';
import { AppError, notFound } from '../../lib/errors.js';
import { voiceForCharacter } from './character-voice.js';
import {
  countPendingReview,
  deleteGalleryPicture,
  findBotByIdForUpdate,
  findVisibleBotBySlug,
  insertBot,
  insertGalleryPicture,
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
import {
  generatedAvatar,
  prepareCardImport,
  reviewStateFor,
  refuseInappropriateText,
  storeBotPicture,
  uniqueSlug,
  type BotsDeps,
  type PreparedCardImport,
} from './bots.service.js';
import { ADMIN_GALLERY_MAX } from '@reverie/shared';

/**
 * What the admin console does with characters (modules/admin/characters.*): official
 * characters created and edited with every card field, their gallery, publishing, the review
 * of public custom characters. The same validation, moderation and photo check as the user's
 * own forms. Every function takes `deps.db` as given — the console passes its transaction, so
 * that the write and its audit record land together.
 */

export { countPendingReview, listGalleries, listGallery, listManagedBots, listPendingReview };
export type { BotPictureRow };

/** The texts of a character the moderation judges (a minor in any of them is refused). */
function cardTexts(row: Partial<NewBotRow>): string[] {
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

/** The columns of the console's fields that were sent (an edit leaves the others as they are). */
function columnsOf(input: AdminCharacterPatch): Partial<NewBotRow> {
  const values: Partial<NewBotRow> = {};
  if (input.name !== undefined) values.name = input.name;
  if (input.slug !== undefined) values.slug = input.slug;
  if (input.age !== undefined) values.age = input.age;
  if (input.description !== undefined) values.description = input.description;
  if (input.greeting !== undefined) values.greeting = input.greeting;
  if (input.alternate_greetings !== undefined) values.alternateGreetings = input.alternate_greetings;
  if (input.personality_text !== undefined) values.personalityText = input.personality_text;
  if (input.scenario !== undefined) values.scenario = input.scenario;
  if (input.example_messages !== undefined) values.exampleMessages = input.example_messages;
  if (input.system_prompt !== undefined) values.systemPrompt = input.system_prompt;
  if (input.post_history_instructions !== undefined) values.postHistoryInstructions = input.post_history_instructions;
  if (input.creator_notes !== undefined) values.creatorNotes = input.creator_notes;
  if (input.tags !== undefined)
    values.tags = [...new Set(input.tags.filter((t) => t !== 'official' && t !== 'custom'))];
  if (input.occupation !== undefined) values.occupation = input.occupation;
  if (input.personality !== undefined) values.personality = input.personality;
  if (input.voice !== undefined) values.voice = input.voice;
  if (input.visibility !== undefined) values.visibility = input.visibility;
  return values;
}

async function refuseTakenSlug(deps: BotsDeps, slug: string | undefined, id: string | null): Promise<void> {
  if (slug && (await slugTakenByOther(deps.db, slug, id))) throw new AppError('slug_taken', { status: 409 });
}

/** Creates an official character (no author, approved; public or private as asked). */
export async function createOfficialBot(deps: BotsDeps, input: AdminCharacterInput): Promise<BotRow> {
  const values = columnsOf(input);
  await refuseInappropriateText(deps.moderation, cardTexts(values));
  await refuseTakenSlug(deps, input.slug, null);
  const id = randomUUID();
  const avatarKey = await generatedAvatar(deps, id, `${input.name}-${id}`, values.tags ?? []);
  try {
    return await insertBot(deps.db, {
      ...values,
      id,
      name: input.name,
      age: input.age,
      slug: input.slug || (await uniqueSlug(deps.db, input.name)),
      kind: 'character',
      voice:
        input.voice ??
        voiceForCharacter({
          description: input.description,
          greeting: input.greeting,
          scenario: input.scenario,
          personality: input.personality_text || input.personality.join(', '),
        }),
      isOfficial: true,
      authorId: null,
      reviewState: 'approved',
      avatarKey,
    });
  } catch (error) {
    await deps.storage.delete(avatarKey).catch(() => {});
    throw error;
  }
}

/** A character's row, locked for this transaction's update; 404 when there is none. */
export async function lockBot(deps: BotsDeps, id: string): Promise<BotRow> {
  const row = await findBotByIdForUpdate(deps.db, id);
  if (!row || row.kind !== 'character') throw notFound();
  return row;
}

/** Edits any card field of a character but its address (the moderation judges the texts as they will be). */
export async function updateManagedBot(
  deps: BotsDeps,
  id: string,
  patch: AdminCharacterPatch,
): Promise<{ before: BotRow; after: BotRow }> {
  const before = await lockBot(deps, id);
  const values = columnsOf(patch);
  // A character's address stays: links, chats and the seed (by slug) rely on it.
  if (values.slug !== undefined && values.slug !== before.slug) throw new AppError('slug_locked', { status: 409 });
  delete values.slug;
  await refuseInappropriateText(deps.moderation, cardTexts({ ...before, ...values }));
  const after = await updateBot(deps.db, id, values);
  return { before, after };
}

/**
 * Reads, judges and stores the picture of a Character Card (PNG or JSON, V1/V2/V3) to be an
 * official character; the caller writes its row (`insert`) in its own transaction.
 */
export async function prepareOfficialCard(
  deps: BotsDeps,
  file: Buffer,
  visibility: 'public' | 'private',
): Promise<PreparedCardImport> {
  return prepareCardImport(deps, null, file, visibility);
}

/** Publishes or unpublishes a character (public or private). */
export async function setBotVisibility(
  deps: BotsDeps,
  id: string,
  visibility: 'public' | 'private',
): Promise<{ before: BotRow; after: BotRow }> {
  const before = await lockBot(deps, id);
  const after = await updateBot(deps.db, id, { visibility });
  return { before, after };
}

/**
 * An administrator takes a character out of public view. A custom one is also marked rejected
 * with the reason: its author sees why on the character, and making it public again sends it
 * back to the review queue instead of listing it at once. An official one only turns private.
 */
export async function unpublishBot(
  deps: BotsDeps,
  id: string,
  reason: string,
): Promise<{ before: BotRow; after: BotRow }> {
  const before = await lockBot(deps, id);
  const after = await updateBot(
    deps.db,
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
export async function decideReview(
  deps: BotsDeps,
  id: string,
  decision: { approve: true; reviewerId: string } | { approve: false; reviewerId: string; reason: string },
): Promise<{ before: BotRow; after: BotRow }> {
  const before = await lockBot(deps, id);
  if (before.isOfficial || before.visibility !== 'public' || before.reviewState !== 'pending')
    throw new AppError('review_not_pending', { status: 409 });
  const now = new Date();
  const after = await updateBot(deps.db, id, {
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
 * answers its key. Official characters' explicit pictures are not held for review.
 */
export async function storeGalleryFile(deps: BotsDeps, botId: string, file: Buffer): Promise<string> {
  return (await storeBotPicture(deps, botId, file)).key;
}

/**
 * Adds a stored picture to a character's gallery (at the end; at most `ADMIN_GALLERY_MAX`).
 * The first picture of a gallery becomes the avatar.
 */
export async function addGalleryPicture(
  deps: BotsDeps,
  botId: string,
  mediaKey: string,
): Promise<{ before: BotRow; after: BotRow; picture: BotPictureRow }> {
  const before = await lockBot(deps, botId);
  const gallery = await listGallery(deps.db, botId);
  if (gallery.length >= ADMIN_GALLERY_MAX) throw new AppError('gallery_full', { status: 409 });
  const picture = await insertGalleryPicture(deps.db, botId, mediaKey);
  const after = gallery.length === 0 ? await updateBot(deps.db, botId, { avatarKey: mediaKey }) : before;
  return { before, after, picture };
}

/**
 * Removes a picture from the gallery (the caller deletes its file once committed). When it
 * was the avatar, the next picture becomes the avatar (none left: `needsAvatar`).
 */
export async function removeGalleryPicture(
  deps: BotsDeps,
  botId: string,
  pictureId: string,
): Promise<{ before: BotRow; after: BotRow; picture: BotPictureRow; needsAvatar: boolean }> {
  const before = await lockBot(deps, botId);
  const picture = await deleteGalleryPicture(deps.db, botId, pictureId);
  if (!picture) throw notFound();
  let after = before;
  let needsAvatar = false;
  if (before.avatarKey === picture.mediaKey) {
    const [next] = await listGallery(deps.db, botId);
    needsAvatar = !next;
    after = await updateBot(deps.db, botId, { avatarKey: next?.mediaKey ?? null });
  }
  return { before, after, picture, needsAvatar };
}

/** A character left without any picture gets a drawn one (as a new character does). */
export async function giveDrawnAvatar(deps: BotsDeps, row: BotRow): Promise<void> {
  const key = await generatedAvatar(deps, row.id, `${row.name}-${randomUUID()}`, row.tags);
  await updateBot(deps.db, row.id, { avatarKey: key });
}

/** Puts the gallery in the given order (every picture's id, once). */
export async function reorderGallery(deps: BotsDeps, botId: string, order: string[]): Promise<BotPictureRow[]> {
  await lockBot(deps, botId);
  const gallery = await listGallery(deps.db, botId);
  const ids = new Set(gallery.map((p) => p.id));
  if (order.length !== ids.size || new Set(order).size !== order.length || order.some((id) => !ids.has(id)))
    throw new AppError('validation_error', { status: 400, errors: { order: ['invalid_value'] } });
  for (const [position, id] of order.entries()) await setGalleryPosition(deps.db, botId, id, position);
  return listGallery(deps.db, botId);
}

/** Makes one of the gallery's pictures the avatar. */
export async function chooseAvatar(
  deps: BotsDeps,
  botId: string,
  pictureId: string,
): Promise<{ before: BotRow; after: BotRow }> {
  const before = await lockBot(deps, botId);
  const picture = (await listGallery(deps.db, botId)).find((p) => p.id === pictureId);
  if (!picture) throw notFound();
  const after = await updateBot(deps.db, botId, { avatarKey: picture.mediaKey });
  return { before, after };
}

/**
 * The author edits their own character (PATCH /api/bot/{slug}): the texts, age, tags and
 * visibility, judged by the moderation as at creation. A rejected character kept or made
 * public goes back to the review queue (pending), its old reason cleared; a private one made
 * public waits for a review unless it was approved before.
 */
export async function updateOwnBot(
  deps: BotsDeps,
  authorId: string,
  slug: string,
  patch: Partial<BotCreate>,
): Promise<BotRow> {
  const row = await findVisibleBotBySlug(deps.db, slug, authorId);
  if (!row || row.authorId !== authorId) throw notFound();
  const values: Partial<NewBotRow> = {};
  if (patch.name !== undefined) values.name = patch.name;
  if (patch.age !== undefined) values.age = patch.age;
  if (patch.description !== undefined) values.description = patch.description;
  if (patch.greeting !== undefined) values.greeting = patch.greeting;
  if (patch.scenario !== undefined) values.scenario = patch.scenario;
  if (patch.occupation !== undefined) values.occupation = patch.occupation;
  if (patch.personality !== undefined) {
    values.personality = patch.personality;
    values.personalityText = patch.personality.join(', ');
  }
  if (patch.tags !== undefined)
    values.tags = [...new Set(patch.tags.filter((t) => t !== 'official' && t !== 'custom'))];
  if (patch.visibility !== undefined) values.visibility = patch.visibility;
  await refuseInappropriateText(deps.moderation, cardTexts({ ...row, ...values }));
  const visibility = values.visibility ?? row.visibility;
  if (visibility === 'public' && row.reviewState === 'rejected') {
    values.reviewState = 'pending';
    values.reviewReason = null;
  }
  // A private character made public waits for a review unless it had one already; with
  // MODERATION_AUTO_APPROVE it is published at once like a new public character — but never
  // one an administrator rejected or unpublished: that one waits for a person.
  if (visibility === 'public' && row.visibility === 'private' && row.reviewState !== 'approved')
    values.reviewState = row.reviewState === 'rejected' ? 'pending' : reviewStateFor(deps, 'public');
  // A rejected public character its author takes private is not one an administrator
  // unpublished (private and rejected, shown to the author with the reason): it waits, like
  // any private character never approved, for a review once made public again.
  if (visibility === 'private' && row.visibility === 'public' && row.reviewState === 'rejected') {
    values.reviewState = 'pending';
    values.reviewReason = null;
  }
  return updateBot(deps.db, row.id, values);
}
