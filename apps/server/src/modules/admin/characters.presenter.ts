import type { AdminCharacter } from '@reverie/shared';
import type { MediaUrls } from '../../lib/media-urls.js';
import { presentBotDetail, type BotPictureRow, type BotRow } from '../bots/index.js';
import type { AuthorRow } from './characters.repository.js';

/** Listed characters' pictures are public; the others get signed URLs (an `<img>` has no token). */
const isListed = (row: BotRow) => row.visibility === 'public' && row.reviewState === 'approved';

/**
 * The console shows every picture sharp (an administrator judges them): an explicit original
 * has no public URL (docs/moderation.md), so it goes out signed, as does every picture of a
 * character that is not listed.
 */
const consoleUrl = (row: BotRow, urls: MediaUrls, key: string, explicit: boolean) =>
  urls.url(key, { signed: explicit || !isListed(row) })!;

/** A character as the console shows it: every card field, its pictures and their flags, its review. */
export function presentAdminCharacter(
  row: BotRow,
  pictures: BotPictureRow[],
  author: AuthorRow | null,
  urls: MediaUrls,
): AdminCharacter {
  return {
    ...presentBotDetail(row, pictures, urls),
    avatar_url: row.avatarKey ? consoleUrl(row, urls, row.avatarKey, row.avatarExplicit) : row.avatarUrl,
    gallery: pictures
      .filter((p) => p.visibility === 'public')
      .map((p) => consoleUrl(row, urls, p.mediaKey, p.explicit)),
    review_reason: row.reviewReason,
    personality_text: row.personalityText,
    example_messages: row.exampleMessages,
    system_prompt: row.systemPrompt,
    post_history_instructions: row.postHistoryInstructions,
    reviewed_at: row.reviewedAt?.toISOString() ?? null,
    avatar_explicit: row.avatarExplicit,
    pictures_reviewed_at: row.picturesReviewedAt?.toISOString() ?? null,
    pictures: pictures.map((p) => ({
      id: p.id,
      url: consoleUrl(row, urls, p.mediaKey, p.explicit),
      position: p.position,
      explicit: p.explicit,
      is_avatar: p.mediaKey === row.avatarKey,
      visibility: p.visibility,
    })),
    author: author ? { id: author.id, name: author.name, email: author.email, locale: author.locale } : null,
    updated_at: row.updatedAt.toISOString(),
    deleted_at: row.deletedAt?.toISOString() ?? null,
  };
}

/** What the audit log keeps of a character before and after a write. */
export function characterSnapshot(row: BotRow): Record<string, unknown> {
  return {
    name: row.name,
    slug: row.slug,
    age: row.age,
    visibility: row.visibility,
    review_state: row.reviewState,
    review_reason: row.reviewReason,
    is_official: row.isOfficial,
    voice: row.voice,
    tags: row.tags,
    avatar_key: row.avatarKey,
    description: row.description,
    greeting: row.greeting,
    alternate_greetings: row.alternateGreetings,
    personality_text: row.personalityText,
    scenario: row.scenario,
    example_messages: row.exampleMessages,
    system_prompt: row.systemPrompt,
    post_history_instructions: row.postHistoryInstructions,
    creator_notes: row.creatorNotes,
    occupation: row.occupation,
    personality: row.personality,
  };
}
