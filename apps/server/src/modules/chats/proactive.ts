import type { Locale, Message } from '@reverie/shared';
import { MessageKind } from '@reverie/shared';
import type { Database } from '../../db/client.js';
import { violatedUniqueIndex } from '../../db/errors.js';
import type { MediaUrls } from '../../lib/media-urls.js';
import { findChatContext } from './chat-context.repository.js';
import { presentMessage } from './chats.presenter.js';
import { insertMessages, type NewMessage } from './messages.repository.js';
import type { ChatBots } from './chats.service.js';
import type { GenerationRunner } from './runner.js';
import { disclosureText, needsDisclosure } from './safety.js';

/** What a proactive message is asked with (the companion module's slot). */
export interface ProactiveRequest {
  chatId: string;
  userId: string;
  /** The slot's planned time: the message's key (a slot is never written twice). */
  slotAt: Date;
  locale: Locale;
  /** The user's local time, as the instruction names it (`Tuesday 18:40`). */
  localTime: string;
  signal: AbortSignal;
}

/** How a proactive message went. */
export type ProactiveOutcome =
  | {
      status: 'written';
      message: Message;
      characterName: string;
      /** The character's address (a notification opens `/{slug}?chat=<id>`). */
      characterSlug: string;
      /** The character's picture (a public, or a signed, URL); null: none. */
      characterPicture: string | null;
      /** The character's picture was judged explicit: never shown on a lock screen. */
      explicitPicture: boolean;
    }
  /** This slot's message exists already (its first writer died after writing it). */
  | { status: 'duplicate' }
  /** The chat is gone or no longer the user's. */
  | { status: 'not_found' }
  /** A reply is being written in the chat right now: the user is there, she does not interrupt. */
  | { status: 'busy' }
  /** The minors guard refused what the model wrote: nothing is written. */
  | { status: 'refused' };

/**
 * The instruction added after a reply's prompt when she writes first (docs/companion.md):
 * open a new thread from what she knows, never a generic greeting.
 */
export function proactiveInstruction(characterName: string, userName: string, localTime: string): string {
  return [
    `# ${characterName} writes first`,
    `${userName} has not written for a while. Write ${characterName}'s next message, reaching out first, in character.`,
    `Open a new thread from something ${characterName} knows: something ${userName} said earlier in this chat, a past event of the story, or the time of day (for ${userName} it is now ${localTime}).`,
    `Never a generic greeting such as "hey" or "how are you?" alone; say something only ${characterName} could say to ${userName} now. Keep it short: one to three sentences.`,
  ].join('\n');
}

const PROACTIVE_INDEX = 'messages_proactive_idx';

/**
 * Writes the character's proactive message in a chat (docs/companion.md "What she writes"):
 * the prompt, persona, memory, lorebook and safety rules of a reply, plus the instruction;
 * the AI disclosure before it when the conversation it opens needs one; one row per slot.
 */
export class ProactiveWriter {
  constructor(
    private readonly deps: {
      db: Database;
      runner: GenerationRunner;
      bots: Pick<ChatBots, 'findBotById'>;
      urls: MediaUrls;
      historyBudget: number;
      historyLimit: number;
      now?: () => Date;
    },
  ) {}

  async write(request: ProactiveRequest): Promise<ProactiveOutcome> {
    const { db, runner } = this.deps;
    const context = await findChatContext(db, request.chatId, request.userId, {
      limit: this.deps.historyLimit,
      budget: this.deps.historyBudget,
    });
    if (!context) return { status: 'not_found' };
    if (context.liveReply) return { status: 'busy' };
    const { chat, bot, userName } = context;
    const instruction = proactiveInstruction(bot.name, userName, request.localTime);
    const text = await runner.compose(
      { chat, bot, userName, locale: request.locale, history: Promise.resolve(context.history ?? []) },
      instruction,
      request.signal,
    );
    if (text === null) return { status: 'refused' };
    const now = this.deps.now?.() ?? new Date();
    const base = { chatId: chat.id, userId: chat.userId, kind: MessageKind.Text, state: 'done' as const };
    const rows: NewMessage[] = [];
    // A conversation opened by her message is disclosed as any other (PRODUCT.md §6).
    const disclose = needsDisclosure(chat.disclosedAt, chat.updatedAt, now);
    if (disclose)
      rows.push({ ...base, role: 'system', text: disclosureText(request.locale, bot.name), notice: 'ai_disclosure' });
    rows.push({ ...base, role: 'bot', text, proactiveSlot: request.slotAt });
    try {
      const inserted = await insertMessages(db, chat.id, rows, disclose ? { disclosedAt: now } : {});
      const message = inserted.find((row) => row.role === 'bot')!;
      const card = await this.deps.bots.findBotById(chat.botId);
      return {
        status: 'written',
        message: presentMessage(message, this.deps.urls),
        characterName: bot.name,
        characterSlug: card?.slug ?? '',
        characterPicture: card?.avatarKey
          ? this.deps.urls.url(card.avatarKey, { signed: true })
          : (card?.avatarUrl ?? null),
        explicitPicture: card?.avatarExplicit ?? false,
      };
    } catch (error) {
      if (violatedUniqueIndex(error) === PROACTIVE_INDEX) return { status: 'duplicate' };
      throw error;
    }
  }
}
