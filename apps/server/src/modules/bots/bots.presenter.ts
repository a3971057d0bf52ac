import type { Bot, BotDetail } from '@reverie/shared';
import type { MediaUrls } from '../../lib/media-urls.js';
import type { BotPictureRow, BotRow } from './bots.repository.js';

/** Private characters' pictures get signed URLs; listed ones plain public URLs. */
const needsSignature = (row: BotRow) => !(row.visibility === 'public' && row.reviewState === 'approved');

export function presentBot(row: BotRow, urls: MediaUrls): Bot {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    age: row.age,
    kind: row.kind,
    avatar_url: row.avatarKey ? urls.url(row.avatarKey, { signed: needsSignature(row) }) : row.avatarUrl,
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

export function presentBotDetail(row: BotRow, gallery: BotPictureRow[], urls: MediaUrls): BotDetail {
  const signed = needsSignature(row);
  return {
    ...presentBot(row, urls),
    scenario: row.scenario,
    gallery: gallery.map((p) => urls.url(p.mediaKey, { signed })!),
    review_state: row.reviewState,
    review_reason: row.reviewState === 'rejected' ? row.reviewReason : null,
    alternate_greetings: row.alternateGreetings,
    creator_notes: row.creatorNotes,
  };
}
