import type { Bot, BotDetail } from '@reverie/shared';
import type { MediaUrls } from '../../lib/media-urls.js';
import type { BotPictureRow, BotRow } from './bots.repository.js';
import { blurredKeyOf } from './explicit-pictures.js';

/** Private characters' pictures get signed URLs; listed ones plain public URLs. */
const needsSignature = (row: BotRow) => !(row.visibility === 'public' && row.reviewState === 'approved');

/**
 * Explicit pictures of a custom character are blurred for everyone but their author until an
 * administrator has reviewed them (`pictures_reviewed_at`). An official character's were put
 * there by an administrator: never blurred (docs/moderation.md).
 */
export const picturesHeldForReview = (row: BotRow) => !row.isOfficial && row.picturesReviewedAt === null;

/**
 * A picture's URL for `viewerId`: the blurred copy's public URL when the picture is explicit and
 * held for review and the viewer is not the author; the original otherwise (signed when it is
 * not public: private, pending, or explicit and held).
 */
function pictureUrl(row: BotRow, key: string, explicit: boolean, urls: MediaUrls, viewerId: string | null): string {
  const held = explicit && picturesHeldForReview(row);
  const isAuthor = viewerId !== null && row.authorId === viewerId;
  if (held && !isAuthor) return urls.url(blurredKeyOf(key), { signed: needsSignature(row) })!;
  return urls.url(key, { signed: needsSignature(row) || held })!;
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

export function presentBotDetail(
  row: BotRow,
  gallery: BotPictureRow[],
  urls: MediaUrls,
  viewerId: string | null = null,
): BotDetail {
  return {
    ...presentBot(row, urls, viewerId),
    scenario: row.scenario,
    gallery: gallery.map((p) => pictureUrl(row, p.mediaKey, p.explicit, urls, viewerId)),
    review_state: row.reviewState,
    review_reason: row.reviewState === 'rejected' ? row.reviewReason : null,
    alternate_greetings: row.alternateGreetings,
    creator_notes: row.creatorNotes,
  };
}
