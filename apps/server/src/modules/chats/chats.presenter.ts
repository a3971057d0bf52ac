import type { Chat, ChatSceneSummary, Message, Speaker } from '@reverie/shared';
import type { StoredSpeaker } from './scenes.repository.js';
import type { MediaUrls } from '../../lib/media-urls.js';
import type { BotRow } from '../bots/index.js';
import { hasAudio } from '../audio/index.js';
import { presentBot } from '../bots/index.js';
import type { ChatRow } from './chats.repository.js';
import type { MessageRow, MessageWithAlts } from './messages.repository.js';

/**
 * Rows → API shapes. A picture's `img_url` is a signed URL (an `<img>` carries no token);
 * a blurred picture's row holds the preview's key, so its URL never leads to the original.
 */
export function presentMessage(row: MessageRow | MessageWithAlts, urls: MediaUrls): Message {
  return {
    id: row.id,
    chat_id: row.chatId,
    client_id: row.clientId,
    role: row.role,
    kind: row.kind as Message['kind'],
    text: row.text,
    img_url: row.mediaKey ? urls.url(row.mediaKey, { signed: true }) : null,
    has_audio: hasAudio(row),
    state: row.state,
    created_at: row.createdAt.toISOString(),
    reply_to: row.replyTo,
    alt_index: row.altIndex,
    alt_count: 'altCount' in row ? row.altCount : row.altIndex + 1,
    error_code: row.errorCode,
    notice: row.notice,
    spoken: row.spoken,
    edited_at: row.editedAt ? row.editedAt.toISOString() : null,
    proactive: row.proactiveSlot !== null,
    // Group scenes (docs/groups.md): only on the messages of a scene, so one-to-one chats answer as before.
    ...(row.speaker ? { speaker: presentSpeaker(row.speaker) } : {}),
    ...(row.privateTo ? { private: true } : {}),
  };
}

/** Who said a message of a scene, as stored with it. */
export function presentSpeaker(stored: StoredSpeaker): Speaker {
  return stored.kind === 'character'
    ? { kind: 'character', bot_id: stored.bot_id, slug: stored.slug, name: stored.name, avatar_url: stored.avatar }
    : {
        kind: 'person',
        user_id: stored.user_id,
        name: stored.name,
        persona_id: stored.persona_id,
        avatar_url: stored.avatar,
      };
}

export function presentChat(
  chat: ChatRow,
  bot: BotRow,
  last: MessageWithAlts | null,
  urls: MediaUrls,
  unread = 0,
): Chat {
  return {
    id: chat.id,
    bot: presentBot(bot, urls, chat.userId),
    last_message: last ? presentMessage(last, urls) : null,
    updated_at: chat.updatedAt.toISOString(),
    persona_id: chat.personaId,
    model_id: chat.modelId,
    unread,
    title: chat.title,
    remember: chat.remember,
    parent_chat_id: chat.parentChatId,
    root_chat_id: chat.rootChatId,
    fork_message_id: chat.forkMessageId,
  };
}

/** What the chats list shows of a group chat: the characters' faces, how many people, the viewer's role. */
export function presentSceneSummary(
  faces: { bots: BotRow[]; people: number } | undefined,
  chat: ChatRow,
  viewerId: string,
  urls: MediaUrls,
): ChatSceneSummary {
  return {
    characters: (faces?.bots ?? []).map((bot) => presentFace(bot, chat, urls)),
    people: faces?.people ?? 1,
    role: chat.userId === viewerId ? 'owner' : 'member',
  };
}

/** A character's face in a scene (her picture as the scene's owner is shown it). */
export function presentFace(bot: BotRow, chat: ChatRow, urls: MediaUrls) {
  return { bot_id: bot.id, slug: bot.slug, name: bot.name, avatar_url: presentBot(bot, urls, chat.userId).avatar_url };
}
