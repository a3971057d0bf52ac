import type { AuthorNote, Chat, ChatMemory, ChatRead, HistoryQuery, Locale, Message, ModelInfo } from '@reverie/shared';
import { MessageKind } from '@reverie/shared';
import type { Database } from '../../db/client.js';
import type { MemoriesApi } from '../memories/index.js';
import { readWhenAllowed } from '../../lib/read-when-allowed.js';
import { decodeCursor, encodeCursor } from '../../lib/cursor.js';
import { AppError, notFound } from '../../lib/errors.js';
import type { MediaUrls } from '../../lib/media-urls.js';
import type { LlmProvider } from '../../providers/llm/llm.js';
import type { MediaStorage } from '../../providers/storage/storage.js';
import { deleteChatMedia } from '../accounts/index.js';
import { hasPremium } from '../billing/index.js';
import { localizeBot, type BotRow, type BotsService } from '../bots/index.js';
import { findOwnPersona, findUserName, listChats } from './chat-context.repository.js';
import {
  deleteChat,
  findLatestChatWithBot,
  findOwnedChat,
  insertChat,
  insertImportedChat,
  markChatRead,
  unreadCounts,
  unreadTotal,
  updateChat,
  type ChatRow,
} from './chats.repository.js';
import { hasLiveReply } from './live-replies.repository.js';
import { insertReport } from './message-reports.repository.js';
import {
  findVisibleMessage as findMessage,
  firstVisibleSeqFrom,
  isShared,
  visibleMessages,
} from './branches.repository.js';
import { lastMessages, selectAlternative, type MessageWithAlts, type NewMessageRow } from './messages.repository.js';
import { presentChat, presentMessage, presentSceneSummary } from './chats.presenter.js';
import { chatsWithBots, findSceneChat, memberChatIds, sceneFaces } from './scenes.repository.js';
import { exportLines, type ExportFormat } from './chat-export.js';
import { importBatches } from './chat-import.js';
import { replaceNames } from './prompt.js';
import { disclosureText } from './safety.js';
import type { UserEvents } from './user-events.js';
import type { WindowLimiter } from '../../providers/limits/index.js';

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
  /** Each bot reply's memories in the history (the memories module); null: none. */
  memories?: Pick<MemoriesApi, 'citations'> | null;
  /** The user's events on every replica (a chat read on one device clears its badges on all). */
  events: UserEvents;
  /** Chat imports per user (CHAT_IMPORTS_PER_HOUR); absent: unlimited (unit tests). */
  imports?: WindowLimiter;
}

const HISTORY_PAGE = 30;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const CHAT_LIST_LIMIT = 200;

/** The AI disclosure that opens a new chat (and an imported one), in the user's language. */
function disclosureRow(chatId: string, userId: string, locale: Locale, characterName: string): NewMessageRow {
  return {
    chatId,
    userId,
    role: 'system',
    kind: MessageKind.Text,
    text: disclosureText(locale, characterName),
    notice: 'ai_disclosure',
    state: 'done',
  };
}

/** The user's chat; anyone else's (or an unknown id) is a 404. */
export async function requireOwnedChat(db: Database, userId: string, chatId: string): Promise<ChatRow> {
  const chat = await findOwnedChat(db, chatId, userId).catch(() => null);
  if (!chat) throw notFound();
  return chat;
}

/** The AI disclosure first (PRODUCT.md §6: an imported chat is disclosed as a new one is), then the imported rows. */
async function* withDisclosure(
  disclosure: NewMessageRow,
  rows: AsyncIterable<NewMessageRow[]>,
): AsyncGenerator<NewMessageRow[]> {
  yield [disclosure];
  yield* rows;
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
      // The greeting in the user's language (an official character's translation), else as written.
      const greeting = replaceNames(localizeBot(bot, locale).greeting, bot.name, userName).trim();
      if (greeting) rows.push({ chatId, userId, role: 'bot', kind: MessageKind.Text, text: greeting, state: 'done' });
      rows.push(disclosureRow(chatId, userId, locale, bot.name));
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
    const owned = await listChats(this.deps.db, userId, CHAT_LIST_LIMIT, { search, botId: filter.bot_id });
    const rows = await this.withJoinedScenes(userId, owned, { search, botId: filter.bot_id });
    const groups = rows.filter((r) => r.chat.isGroup).map((r) => r.chat.id);
    const [last, unread, faces] = await Promise.all([
      this.lastShown(
        rows.map((r) => r.chat),
        userId,
      ),
      unreadCounts(
        this.deps.db,
        userId,
        rows.map((r) => r.chat.id),
      ),
      sceneFaces(this.deps.db, groups),
    ]);
    return rows.map((r) => {
      const chat = presentChat(r.chat, r.bot, last.get(r.chat.id) ?? null, this.deps.urls, unread.get(r.chat.id) ?? 0);
      if (!r.chat.isGroup) return chat;
      return { ...chat, scene: presentSceneSummary(faces.get(r.chat.id), r.chat, userId, this.deps.urls) };
    });
  }

  /** The user's chats and the scenes they joined (docs/groups.md), newest activity first. */
  private async withJoinedScenes(
    userId: string,
    owned: Array<{ chat: ChatRow; bot: BotRow }>,
    filter: { search?: string; botId?: string },
  ): Promise<Array<{ chat: ChatRow; bot: BotRow }>> {
    const joined = await chatsWithBots(this.deps.db, await memberChatIds(this.deps.db, userId, CHAT_LIST_LIMIT));
    if (joined.length === 0) return owned;
    const needle = filter.search?.toLowerCase();
    const kept = joined.filter(
      (r) =>
        (!filter.botId || r.bot.id === filter.botId) &&
        (!needle || r.bot.name.toLowerCase().includes(needle) || (r.chat.title ?? '').toLowerCase().includes(needle)),
    );
    return [...owned, ...kept]
      .sort((a, b) => b.chat.updatedAt.getTime() - a.chat.updatedAt.getTime())
      .slice(0, CHAT_LIST_LIMIT);
  }

  /**
   * The last real message of each chat; a branch without messages of its own yet shows the
   * last one of the history it shares (one read per such branch).
   */
  private async lastShown(chats: ChatRow[], viewerId?: string): Promise<Map<string, MessageWithAlts>> {
    const last = await lastMessages(
      this.deps.db,
      chats.map((c) => c.id),
    );
    // Another person's private message in a scene is no preview of it.
    for (const [id, row] of last) if (row.privateTo && row.privateTo !== viewerId) last.delete(id);
    const shared = chats.filter((c) => c.parentChatId && !last.has(c.id));
    const found = await Promise.all(
      shared.map((c) => visibleMessages(this.deps.db, c.id, { limit: 1, direction: 'desc', realOnly: true })),
    );
    shared.forEach((c, i) => {
      const row = found[i]![0];
      if (row) last.set(c.id, row);
    });
    return last;
  }

  /**
   * The user read the chat (on this device) through its newest message: every open app of the
   * user, on any replica, is told (`GET /api/events`) and clears its badges. Another user's
   * chat is a 404.
   */
  async markRead(userId: string, chatId: string): Promise<ChatRead> {
    if (!UUID.test(chatId) || !(await markChatRead(this.deps.db, userId, chatId))) throw notFound();
    const total = await unreadTotal(this.deps.db, userId);
    await this.deps.events.publish(userId, { type: 'read', chat_id: chatId, unread_total: total });
    return { chat_id: chatId, unread_total: total };
  }

  unreadTotal(userId: string): Promise<number> {
    return unreadTotal(this.deps.db, userId);
  }

  private ownedChat(userId: string, chatId: string): Promise<ChatRow> {
    return requireOwnedChat(this.deps.db, userId, chatId);
  }

  /** The chat for its owner or an active member of its scene (docs/groups.md); 404 for anyone else. */
  private async sceneChat(userId: string, chatId: string): Promise<ChatRow> {
    const found = await findSceneChat(this.deps.db, chatId, userId).catch(() => null);
    if (!found) throw notFound();
    return found.chat;
  }

  /** One of the user's chats by its id (the web addresses chats by id); a scene they joined too. */
  async get(userId: string, chatId: string): Promise<Chat> {
    const chat = await this.sceneChat(userId, chatId);
    const bot = await this.deps.bots.findBotById(chat.botId);
    if (!bot) throw notFound();
    const last = (await this.lastShown([chat], userId)).get(chat.id) ?? null;
    const shown = presentChat(chat, bot, last, this.deps.urls);
    if (!chat.isGroup) return shown;
    const faces = await sceneFaces(this.deps.db, [chat.id]);
    return { ...shown, scene: presentSceneSummary(faces.get(chat.id), chat, userId, this.deps.urls) };
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

  /**
   * A page of the history (docs/chat.md "Long chats"), newest first: the newest messages, or
   * older than `c`, newer than `a`, the chat's first (`from`), or around a moment (`at`: half
   * before the first message at or after it, half from it). Every read is a keyset read of an
   * index, as fast in a chat of 100 000 messages as in a new one.
   */
  async history(userId: string, chatId: string, query: HistoryQuery = {}) {
    const page = await readWhenAllowed(this.sceneChat(userId, chatId), () => this.historyPage(chatId, query, userId));
    const replies = page.results.filter((m) => m.role === 'bot').map((m) => m.id);
    const cited = replies.length && this.deps.memories ? await this.deps.memories.citations(replies, userId) : null;
    for (const message of page.results) {
      const memories = cited?.get(message.id);
      if (memories) message.memories = { in_prompt: memories.inPrompt, drew_on: memories.drewOn };
    }
    return page;
  }

  private async historyPage(chatId: string, query: HistoryQuery, viewerId: string) {
    const size = query.size ?? HISTORY_PAGE;
    const db = this.deps.db;
    // A scene's private messages (a crisis reply) are shown to their person only.
    const present = (rows: MessageWithAlts[]) =>
      rows.filter((r) => !r.privateTo || r.privateTo === viewerId).map((r) => presentMessage(r, this.deps.urls));
    const pageAfter = (id: string, afterSeq: number, limit: number) =>
      visibleMessages(db, id, { afterSeq, limit, direction: 'asc' });
    const pageBefore = (id: string, beforeSeq: number | null, limit: number) =>
      visibleMessages(db, id, { beforeSeq, limit, direction: 'desc' });
    const after = query.from === 'first' ? 0 : (decodeCursor(query.a, ['int'])?.[0] ?? null);
    if (after !== null) {
      const rows = await pageAfter(chatId, after, size + 1);
      const page = rows.slice(0, size);
      const prev = rows.length > size ? encodeCursor([page[page.length - 1]!.seq]) : null;
      return { results: present(page.reverse()), next_param: null, prev_param: prev };
    }
    if (query.at !== undefined) {
      const at = new Date(query.at);
      const from = await firstVisibleSeqFrom(db, chatId, at);
      if (from !== null) {
        const before = Math.floor(size / 2);
        const [newer, older] = await Promise.all([
          pageAfter(chatId, from - 1, size - before + 1),
          pageBefore(chatId, from, before + 1),
        ]);
        const newPart = newer.slice(0, size - before);
        const oldPart = older.slice(0, before);
        return {
          results: present([...newPart.reverse(), ...oldPart]),
          next_param: older.length > before ? encodeCursor([oldPart[oldPart.length - 1]!.seq]) : null,
          prev_param: newer.length > size - before ? encodeCursor([newPart[0]!.seq]) : null,
          anchor_id: newer[0]?.id ?? null,
        };
      }
      // Every message is older than that moment: the newest page, nothing to point at.
    }
    const beforeSeq = decodeCursor(query.c, ['int'])?.[0] ?? null;
    const rows = await pageBefore(chatId, beforeSeq, size + 1);
    const page = rows.slice(0, size);
    const next = rows.length > size ? encodeCursor([page[page.length - 1]!.seq]) : null;
    return {
      results: present(page),
      next_param: next,
      prev_param: null,
      ...(query.at !== undefined ? { anchor_id: null } : {}),
    };
  }

  async update(
    userId: string,
    chatId: string,
    body: { persona_id?: string | null; model_id?: string | null; title?: string | null; remember?: boolean },
  ): Promise<Chat> {
    const chat = await this.ownedChat(userId, chatId);
    const values: { personaId?: string | null; modelId?: string | null; title?: string | null; remember?: boolean } =
      {};
    if (body.title !== undefined) values.title = body.title === null ? null : body.title.trim();
    if (body.remember !== undefined) values.remember = body.remember;
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
    const last = (await this.lastShown([chat])).get(chat.id) ?? null;
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

  /**
   * The chat as a SillyTavern JSONL or plain-text file, streamed (docs/chat.md "Export"); the
   * names are the ones the story uses: the chat's persona (else the user's profile name) and
   * the character's.
   */
  async exportChat(userId: string, chatId: string, format: ExportFormat) {
    const chat = await this.ownedChat(userId, chatId);
    const [bot, profileName, persona] = await Promise.all([
      this.deps.bots.findBotById(chat.botId),
      findUserName(this.deps.db, userId),
      chat.personaId ? findOwnPersona(this.deps.db, chat.personaId, userId) : null,
    ]);
    const userName = persona?.name ?? profileName;
    const character = bot?.name ?? 'Character';
    const stamp = chat.createdAt.toISOString().slice(0, 10);
    return {
      filename: `${(bot?.slug ?? 'chat').replace(/[^a-z0-9-]/gi, '')}-${stamp}.${format}`,
      lines: exportLines(this.deps.db, chat, { user: userName, character }, format),
    };
  }

  /** Counts one chat import of the user: 429 with Retry-After past CHAT_IMPORTS_PER_HOUR (before the upload is read). */
  async takeImport(userId: string): Promise<void> {
    const wait = (await this.deps.imports?.take(userId)) ?? 0;
    if (wait > 0) throw new AppError('rate_limited', { status: 429, headers: { 'retry-after': String(wait) } });
  }

  /**
   * A SillyTavern chat JSONL (streamed from disk) as a new chat of the user with the chosen
   * character (docs/chat.md "Import"). 422 `import_character_mismatch` when the file names
   * another character, unless `force`; 422 `import_bad_line` (with the line), `import_empty`,
   * `import_too_many_messages`: nothing is left of the chat then.
   */
  async importChat(
    userId: string,
    ref: { botID?: string; slug?: string },
    /** Opens the file's stream (only once the character is known). */
    file: () => NodeJS.ReadableStream,
    options: { force: boolean; locale: Locale },
  ): Promise<{ chat: Chat; imported: number; skipped: number }> {
    const { force, locale } = options;
    const bot = await this.chatBot(userId, ref);
    const now = this.now();
    const counts = { imported: 0, skipped: 0 };
    const checkHeader = ({ characterName }: { characterName: string | null }) => {
      if (force || !characterName) return;
      if (characterName.toLocaleLowerCase() !== bot.name.trim().toLocaleLowerCase())
        throw new AppError('import_character_mismatch', {
          status: 422,
          detail: `The file is a chat with ${characterName.slice(0, 80)}, not ${bot.name}`,
          errors: { character_name: [characterName.slice(0, 80)] },
        });
    };
    const { chat } = await insertImportedChat(this.deps.db, { userId, botId: bot.id, disclosedAt: now }, (chatId) =>
      withDisclosure(
        disclosureRow(chatId, userId, locale, bot.name),
        importBatches(file(), { chatId, userId, now }, checkHeader, counts),
      ),
    );
    const last = (await lastMessages(this.deps.db, [chat.id])).get(chat.id) ?? null;
    return { chat: presentChat(chat, bot, last, this.deps.urls), ...counts };
  }

  async getAuthorNote(userId: string, chatId: string): Promise<AuthorNote> {
    const chat = await this.ownedChat(userId, chatId);
    return { text: chat.authorNote, depth: chat.authorNoteDepth };
  }

  async setAuthorNote(userId: string, chatId: string, note: AuthorNote): Promise<AuthorNote> {
    const chat = await this.ownedChat(userId, chatId);
    const updated = await updateChat(this.deps.db, chat.id, {
      authorNote: note.text.trim(),
      authorNoteDepth: note.depth,
    });
    return { text: updated.authorNote, depth: updated.authorNoteDepth };
  }

  async report(
    userId: string,
    chatId: string,
    messageId: string,
    body: { reason: string; comment?: string },
  ): Promise<void> {
    await this.sceneChat(userId, chatId);
    const message = await findMessage(this.deps.db, chatId, messageId).catch(() => null);
    if (!message) throw notFound();
    await insertReport(this.deps.db, { messageId, userId, reason: body.reason, comment: body.comment?.trim() ?? '' });
  }

  async select(userId: string, chatId: string, messageId: string, index: number): Promise<Message> {
    await this.sceneChat(userId, chatId);
    const message = await findMessage(this.deps.db, chatId, messageId).catch(() => null);
    if (!message || message.role !== 'bot' || !message.replyTo) throw notFound();
    if (await hasLiveReply(this.deps.db, chatId)) throw new AppError('generation_in_progress', { status: 409 });
    // Another chat of the tree shows this reply too: its alternatives are not this chat's to change.
    if (message.chatId !== chatId || (await isShared(this.deps.db, message)))
      throw new AppError('shared_message', {
        status: 409,
        detail: 'This reply is shared with a branch: rewrite or regenerate it instead',
      });
    const chosen = await selectAlternative(this.deps.db, chatId, message.replyTo, index);
    if (!chosen) throw notFound('There is no such alternative');
    return presentMessage((await findMessage(this.deps.db, chatId, chosen))!, this.deps.urls);
  }
}
