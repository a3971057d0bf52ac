/**
 * A chat's export (docs/chat.md "Export"): SillyTavern's chat JSONL (a header line, then one
 * line a message, a reply's alternatives as its swipes) or plain text, read in pages of the history oldest first and written as
 * they come — a chat of any length in constant memory.
 */
import type { Database } from '../../db/client.js';
import { alternativesOf, visibleMessages, type Alternative } from './branches.repository.js';
import type { MessageWithAlts } from './messages.repository.js';

/** How many messages one read of the export takes. */
export const EXPORT_PAGE = 500;

export type ExportFormat = 'jsonl' | 'txt';

/** SillyTavern's date format in chat files (`send_date`, `create_date`): an ISO 8601 string is accepted on import. */
const stDate = (date: Date) => date.toISOString();

/**
 * The chat's shown messages, oldest first, page by page (system notices left out): the history
 * the chat shows — a branch's shared rows up to its fork included, its own edits and deletions
 * of them applied.
 */
async function* chatPages(db: Database, chatId: string): AsyncGenerator<MessageWithAlts[]> {
  let after = 0;
  for (;;) {
    const page = await visibleMessages(db, chatId, { afterSeq: after, limit: EXPORT_PAGE, direction: 'asc' });
    yield page.filter((message) => message.role !== 'system' && message.text);
    if (page.length < EXPORT_PAGE) return;
    after = page[page.length - 1]!.seq;
  }
}

/**
 * A reply's swipes as SillyTavern writes them: every alternative with a text (a failed one has
 * none), the shown one at `swipe_id` (its text is `mes`), each with its own time; nothing for a
 * message without alternatives.
 */
function swipesOf(message: MessageWithAlts, alternatives: Alternative[] | undefined) {
  const written = (alternatives ?? []).filter((alt) => alt.text || alt.altIndex === message.altIndex);
  const shown = written.findIndex((alt) => alt.altIndex === message.altIndex);
  if (written.length < 2 || shown < 0) return {};
  return {
    swipes: written.map((alt, i) => (i === shown ? message.text : alt.text)),
    swipe_id: shown,
    swipe_info: written.map((alt, i) => ({
      send_date: stDate(i === shown ? message.createdAt : alt.createdAt),
      extra: {},
    })),
  };
}

/** The export's lines, each ending in a newline. */
export async function* exportLines(
  db: Database,
  chat: { id: string; createdAt: Date },
  names: { user: string; character: string },
  format: ExportFormat,
): AsyncGenerator<string> {
  if (format === 'jsonl')
    yield `${JSON.stringify({
      user_name: names.user,
      character_name: names.character,
      create_date: stDate(chat.createdAt),
      chat_metadata: {},
    })}\n`;
  for await (const page of chatPages(db, chat.id)) {
    // Only the JSONL carries the alternatives: the text is the story as shown.
    const alternatives =
      format === 'jsonl' ? await alternativesOf(db, chat.id, page) : new Map<string, Alternative[]>();
    for (const message of page) {
      const isUser = message.role === 'user';
      const name = isUser ? names.user : names.character;
      if (format === 'jsonl')
        yield `${JSON.stringify({
          name,
          is_user: isUser,
          is_system: false,
          send_date: stDate(message.createdAt),
          mes: message.text,
          ...swipesOf(message, alternatives.get(`${message.chatId}:${message.replyTo}`)),
          extra: {},
        })}\n`;
      else
        yield `${name} (${message.createdAt.toISOString().slice(0, 16).replace('T', ' ')} UTC):\n${message.text}\n\n`;
    }
  }
}
