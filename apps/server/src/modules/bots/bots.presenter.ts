import type { Bot, BotDetail, BotMine } from '@reverie/shared';
import type { MediaUrls } from '../../lib/media-urls.js';
import type { BotPictureRow, BotRow } from './bots.repository.js';
import { blurredKeyOf } from './explicit-pictures.js';

/** Private characters' pictures get signed URLs; listed ones plain public URLs. */
const needsSignature = (row: BotRow) => !(row.visibility === 'public' && row.reviewState === 'approved');

/**
 * A custom character's explicit pictures wait for an administrator's review
 * (`pictures_reviewed_at`); an official character's were put there by an administrator.
 */
export const picturesHeldForReview = (row: BotRow) => !row.isOfficial && row.picturesReviewedAt === null;

/**
 * Whether `viewerId` is given a character's explicit pictures as their blurred copy (PRODUCT.md
 * §6, docs/moderation.md): a guest always, official characters' included; a logged-in user (every
 * account confirmed being 18 or older at sign-up) while the pictures wait for review; the author
 * never.
 */
export function explicitPicturesBlurredFor(row: BotRow, viewerId: string | null): boolean {
  if (viewerId === null) return true;
  return row.authorId !== viewerId && picturesHeldForReview(row);
}

/**
 * A picture's URL for `viewerId`: an explicit picture is the blurred copy's URL when
 * `explicitPicturesBlurredFor` says so, else the original's signed URL (its plain URL answers
 * 404 to anyone without a signature, the author's token or an administrator's); any other
 * picture its plain URL, signed when it is not public (private or pending).
 */
function pictureUrl(row: BotRow, key: string, explicit: boolean, urls: MediaUrls, viewerId: string | null): string {
  if (!explicit) return urls.url(key, { signed: needsSignature(row) })!;
  if (explicitPicturesBlurredFor(row, viewerId)) return urls.url(blurredKeyOf(key), { signed: needsSignature(row) })!;
  return urls.url(key, { signed: true })!;
}

/** One of the author's own characters or personas with its state and chat counts (My characters). */
export function presentMyBot(
  row: BotRow,
  counts: { chats: number; people: number } | undefined,
  urls: MediaUrls,
): BotMine {
  return {
    ...presentBot(row, urls, row.authorId),
    review_state: row.reviewState,
    review_reason: row.reviewState === 'rejected' ? row.reviewReason : null,
    chats_count: counts?.chats ?? 0,
    people_count: counts?.people ?? 0,
  };
}

/** `viewerId`: who the answer is for (the author sees their own explicit pictures unblurred). */
export function presentBot(row: BotRow, urls: MediaUrls, viewerId: string | null = null): Bot {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    age: row.age,
    kind: row.kind,
    avatar_url: row.avatarKey ? pictureUrl(row, row.avatarKey, row.avatarExplicit, urls, viewerId) : row.avatarUrl,
    description: row.description,
    greeting: row.greeting,
    occupation: row.occupation,
    personality: row.personality,
    tags: row.tags,
    is_official: row.isOfficial,
    visibility: row.visibility,
    author_id: row.authorId,
    voice: row.voice,
    created_at: row.createdAt.toISOString(),
  };
}

/**
 * A character's page. Its `gallery` holds its public pictures only: a private picture is sent
 * in chat (blurred for free users until unblurred) and never shown on a page, whoever asks
 * (docs/pictures.md, "Public and private pictures").
 */
export function presentBotDetail(
  row: BotRow,
  gallery: BotPictureRow[],
  urls: MediaUrls,
  viewerId: string | null = null,
): BotDetail {
  return {
    ...presentBot(row, urls, viewerId),
    scenario: row.scenario,
    gallery: gallery
      .filter((p) => p.visibility === 'public')
      .map((p) => pictureUrl(row, p.mediaKey, p.explicit, urls, viewerId)),
    review_state: row.reviewState,
    review_reason: row.reviewState === 'rejected' ? row.reviewReason : null,
    alternate_greetings: row.alternateGreetings,
    creator_notes: row.creatorNotes,
    example_messages: row.exampleMessages,
  };
}
