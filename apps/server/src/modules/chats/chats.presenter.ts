import type { Chat, Message } from '@reverie/shared';
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
  };
}

export function presentChat(chat: ChatRow, bot: BotRow, last: MessageWithAlts | null, urls: MediaUrls): Chat {
  return {
    id: chat.id,
    bot: presentBot(bot, urls, chat.userId),
    last_message: last ? presentMessage(last, urls) : null,
    updated_at: chat.updatedAt.toISOString(),
    persona_id: chat.personaId,
    model_id: chat.modelId,
    title: chat.title,
  };
}
