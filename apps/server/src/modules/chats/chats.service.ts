import type { Chat, ChatMemory, Locale, Message, ModelInfo } from '@reverie/shared';
import { MessageKind } from '@reverie/shared';
import type { Database } from '../../db/client.js';
import { decodeCursor, encodeCursor } from '../../lib/cursor.js';
import { AppError, notFound } from '../../lib/errors.js';
import type { MediaUrls } from '../../lib/media-urls.js';
import type { LlmProvider } from '../../providers/llm/llm.js';
import type { MediaStorage } from '../../providers/storage/storage.js';
import { deleteChatMedia } from '../accounts/index.js';
import { hasPremium } from '../billing/index.js';
import type { BotRow, BotsService } from '../bots/index.js';
import { findOwnPersona, findUserName, listChats } from './chat-context.repository.js';
import {
  deleteChat,
  findLatestChatWithBot,
  findOwnedChat,
  insertChat,
  updateChat,
  type ChatRow,
} from './chats.repository.js';
import { hasLiveReply } from './live-replies.repository.js';
import { insertReport } from './message-reports.repository.js';
import {
  findMessage,
  historyPage,
  lastMessages,
  selectAlternative,
  type NewMessageRow,
} from './messages.repository.js';
import { presentChat, presentMessage } from './chats.presenter.js';
import { replaceNames } from './prompt.js';
import { disclosureText } from './safety.js';

/** What the chats read of the characters (the bots module's service). */
export type ChatBots = Pick<BotsService, 'findBotById' | 'findVisibleBotById' | 'findVisibleBotBySlug'>;

export interface ChatsDeps {
  db: Database;
  bots: ChatBots;
  llm: LlmProvider;
  urls: MediaUrls;
  /** Where chat pictures and voice files live (removed with their chat). */
  storage?: MediaStorage;
  /** Warnings that lose no request (a file that could not be removed). */
  log?: { warn(details: object, message: string): void };
  now?: () => Date;
}

const HISTORY_PAGE = 30;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const CHAT_LIST_LIMIT = 200;

/** The user's chat; anyone else's (or an unknown id) is a 404. */
export async function requireOwnedChat(db: Database, userId: string, chatId: string): Promise<ChatRow> {
  const chat = await findOwnedChat(db, chatId, userId).catch(() => null);
  if (!chat) throw notFound();
  return chat;
}

/**
 * Conversations (issue 5): chats, their history, swipe, memory, the model and persona of a
 * chat, reports. Sending and the replies themselves are `RepliesService`'s (replies.service.ts).
 */
export class ChatsService {
  constructor(private readonly deps: ChatsDeps) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  // ---------------------------------------------------------------------------------------
  // Chats
  // ---------------------------------------------------------------------------------------

  /** A character the user may chat with: visible to them and not a persona. */
  private async chatBot(userId: string, ref: { botID?: string; slug?: string }): Promise<BotRow> {
    let bot: BotRow | null = null;
    if (ref.slug) bot = await this.deps.bots.findVisibleBotBySlug(ref.slug, userId);
    else if (ref.botID) bot = await this.deps.bots.findVisibleBotById(ref.botID, userId).catch(() => null);
    if (!bot || bot.kind !== 'character') throw notFound();
    return bot;
  }

  async create(userId: string, ref: { botID?: string; slug?: string }, locale: Locale): Promise<Chat> {
    const bot = await this.chatBot(userId, ref);
    const userName = await findUserName(this.deps.db, userId);
    const now = this.now();
    const chat = await insertChat(this.deps.db, { userId, botId: bot.id, disclosedAt: now }, (chatId) => {
      const rows: NewMessageRow[] = [];
      const greeting = replaceNames(bot.greeting, bot.name, userName).trim();
      if (greeting) rows.push({ chatId, userId, role: 'bot', kind: MessageKind.Text, text: greeting, state: 'done' });
      rows.push({
        chatId,
        userId,
        role: 'system',
        kind: MessageKind.Text,
        text: disclosureText(locale, bot.name),
        notice: 'ai_disclosure',
        state: 'done',
      });
      return rows;
    });
    const last = (await lastMessages(this.deps.db, [chat.id])).get(chat.id) ?? null;
    return presentChat(chat, bot, last, this.deps.urls);
  }

  async getOrCreate(userId: string, ref: { botID?: string; slug?: string }, locale: Locale): Promise<Chat> {
    const bot = await this.chatBot(userId, ref);
    const chat = await findLatestChatWithBot(this.deps.db, userId, bot.id);
    if (!chat) return this.create(userId, { botID: bot.id }, locale);
    const last = (await lastMessages(this.deps.db, [chat.id])).get(chat.id) ?? null;
    return presentChat(chat, bot, last, this.deps.urls);
  }

  async list(userId: string, filter: { q?: string; bot_id?: string } = {}): Promise<Chat[]> {
    const search = filter.q?.trim() || undefined;
    // An id that is not a UUID names no chat's character (never a database error).
    if (filter.bot_id !== undefined && !UUID.test(filter.bot_id)) return [];
    const rows = await listChats(this.deps.db, userId, CHAT_LIST_LIMIT, { search, botId: filter.bot_id });
    const last = await lastMessages(
      this.deps.db,
      rows.map((r) => r.chat.id),
    );
    return rows.map((r) => presentChat(r.chat, r.bot, last.get(r.chat.id) ?? null, this.deps.urls));
  }

  private ownedChat(userId: string, chatId: string): Promise<ChatRow> {
    return requireOwnedChat(this.deps.db, userId, chatId);
  }

  /** One of the user's chats by its id (the web addresses chats by id). */
  async get(userId: string, chatId: string): Promise<Chat> {
    const chat = await this.ownedChat(userId, chatId);
    const bot = await this.deps.bots.findBotById(chat.botId);
    if (!bot) throw notFound();
    const last = (await lastMessages(this.deps.db, [chat.id])).get(chat.id) ?? null;
    return presentChat(chat, bot, last, this.deps.urls);
  }

  /**
   * Deletes the user's chat with its messages, then its pictures, originals and voice files
   * in storage (the caller has stopped its live reply first). Another user's chat is a 404.
   */
  async delete(userId: string, chatId: string): Promise<void> {
    await this.ownedChat(userId, chatId);
    const media = await deleteChat(this.deps.db, chatId, userId);
    if (!media) throw notFound();
    if (!this.deps.storage || media.length === 0) return;
    try {
      await deleteChatMedia(this.deps.storage, userId, media);
    } catch (error) {
      // The chat is gone; a file left behind is the operator's to clear, not the user's error.
      this.deps.log?.warn({ err: error, files: media.length }, 'chat deleted; some of its files were not removed');
    }
  }

  async history(userId: string, chatId: string, cursor: string | undefined, size = HISTORY_PAGE) {
    await this.ownedChat(userId, chatId);
    const decoded = decodeCursor(cursor, ['int']);
    const beforeSeq = decoded ? decoded[0] : null;
    const rows = await historyPage(this.deps.db, chatId, beforeSeq, size + 1);
    const page = rows.slice(0, size);
    const next = rows.length > size ? encodeCursor([page[page.length - 1]!.seq]) : null;
    return { results: page.map((r) => presentMessage(r, this.deps.urls)), next_param: next };
  }

  async update(
    userId: string,
    chatId: string,
    body: { persona_id?: string | null; model_id?: string | null; title?: string | null },
  ): Promise<Chat> {
    const chat = await this.ownedChat(userId, chatId);
    const values: { personaId?: string | null; modelId?: string | null; title?: string | null } = {};
    if (body.title !== undefined) values.title = body.title === null ? null : body.title.trim();
    if (body.persona_id !== undefined) {
      if (body.persona_id !== null) {
        const persona = await findOwnPersona(this.deps.db, body.persona_id, userId).catch(() => null);
        if (!persona)
          throw new AppError('validation_error', { status: 422, errors: { persona_id: ['Persona not found'] } });
      }
      values.personaId = body.persona_id;
    }
    if (body.model_id !== undefined) {
      if (body.model_id !== null) {
        const model = this.deps.llm.models().find((m) => m.id === body.model_id);
        if (!model) throw new AppError('unknown_model', { status: 422, errors: { model_id: ['Unknown model'] } });
        if (model.premium && !(await hasPremium(this.deps.db, userId)))
          throw new AppError('premium_required', { status: 402 });
      }
      values.modelId = body.model_id;
    }
    const updated = Object.keys(values).length ? await updateChat(this.deps.db, chat.id, values) : chat;
    const bot = (await this.deps.bots.findBotById(chat.botId))!;
    const last = (await lastMessages(this.deps.db, [chat.id])).get(chat.id) ?? null;
    return presentChat(updated, bot, last, this.deps.urls);
  }

  async models(userId: string | null): Promise<{ results: ModelInfo[]; default_id: string }> {
    const premium = userId ? await hasPremium(this.deps.db, userId) : false;
    const models = this.deps.llm.models();
    return {
      results: models.map((m) => ({
        id: m.id,
        label: m.label,
        provider: m.provider,
        context_size: m.contextSize,
        premium: m.premium,
        available: !m.premium || premium,
      })),
      default_id: models[0]?.id ?? '',
    };
  }

  async getMemory(userId: string, chatId: string): Promise<ChatMemory> {
    const chat = await this.ownedChat(userId, chatId);
    return { memory: chat.memory, updated_at: chat.memoryUpdatedAt?.toISOString() ?? null };
  }

  async setMemory(userId: string, chatId: string, memory: string): Promise<ChatMemory> {
    const chat = await this.ownedChat(userId, chatId);
    const updated = await updateChat(this.deps.db, chat.id, { memory: memory.trim(), memoryUpdatedAt: this.now() });
    return { memory: updated.memory, updated_at: updated.memoryUpdatedAt?.toISOString() ?? null };
  }

  async report(
    userId: string,
    chatId: string,
    messageId: string,
    body: { reason: string; comment?: string },
  ): Promise<void> {
    await this.ownedChat(userId, chatId);
    const message = await findMessage(this.deps.db, chatId, messageId).catch(() => null);
    if (!message) throw notFound();
    await insertReport(this.deps.db, { messageId, userId, reason: body.reason, comment: body.comment?.trim() ?? '' });
  }

  async select(userId: string, chatId: string, messageId: string, index: number): Promise<Message> {
    await this.ownedChat(userId, chatId);
    const message = await findMessage(this.deps.db, chatId, messageId).catch(() => null);
    if (!message || message.role !== 'bot' || !message.replyTo) throw notFound();
    if (await hasLiveReply(this.deps.db, chatId)) throw new AppError('generation_in_progress', { status: 409 });
    const chosen = await selectAlternative(this.deps.db, chatId, message.replyTo, index);
    if (!chosen) throw notFound('There is no such alternative');
    return presentMessage((await findMessage(this.deps.db, chatId, chosen))!, this.deps.urls);
  }
}
