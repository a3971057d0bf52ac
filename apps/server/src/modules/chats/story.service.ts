import type { Around, Chat, ChatSearch, ChatTree, DeletedMessages, Locale, Message } from '@reverie/shared';
import { MessageKind } from '@reverie/shared';
import type { Database } from '../../db/client.js';
import { readWhenAllowed } from '../../lib/read-when-allowed.js';
import { encodeCursor } from '../../lib/cursor.js';
import { AppError, notFound } from '../../lib/errors.js';
import type { MediaUrls } from '../../lib/media-urls.js';
import type { MediaStorage } from '../../providers/storage/storage.js';
import { deleteChatMedia } from '../accounts/index.js';
import {
  branchTree,
  findVisibleMessage,
  insertBranch,
  isShared,
  overrideDeleted,
  overrideText,
  visibleFrom,
  visibleMessages,
} from './branches.repository.js';
import type { ChatRow } from './chats.repository.js';
import { presentChat, presentMessage } from './chats.presenter.js';
import { requireOwnedChat, type ChatBots } from './chats.service.js';
import { hasLiveReply } from './live-replies.repository.js';
import {
  deleteOwnMessages,
  editMessageText,
  insertEditedReply,
  replyGroup,
  type MessageMedia,
  type MessageWithAlts,
} from './messages.repository.js';
import { searchChat } from './search.js';

/**
 * Told when messages are deleted for good (issue 29): their ids are no source of anything any
 * more (the memory module drops them from its records' sources). A message only hidden in one
 * chat of a branch tree, which another chat still shows, is not deleted and not told.
 */
export type MessagesDeleted = (event: { userId: string; chatId: string; messageIds: string[] }) => Promise<void>;

export interface StoryDeps {
  db: Database;
  bots: Pick<ChatBots, 'findBotById'>;
  urls: MediaUrls;
  storage?: MediaStorage;
  log?: { warn(details: object, message: string): void };
  onMessagesDeleted?: MessagesDeleted;
  now?: () => Date;
}

const AROUND_PAGE = 30;
const conflict = () => new AppError('generation_in_progress', { status: 409 });

/**
 * The story's shape (issue 29, docs/chat.md "Edit, delete and branches", "Search in a chat"):
 * editing and deleting messages, branches (shared rows: a branch is one chat row and one
 * segment row per ancestor), the branch tree, search in a chat, a page around a message.
 * A chat's change to a row another chat of its tree shares is copy on write
 * (`message_overrides`): the other chats never see it.
 */
export class StoryService {
  constructor(private readonly deps: StoryDeps) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  private present(row: MessageWithAlts): Message {
    return presentMessage(row, this.deps.urls);
  }

  /** The user's chat with no reply being written, and a message of its history. */
  private async editable(userId: string, chatId: string, messageId: string) {
    const chat = await requireOwnedChat(this.deps.db, userId, chatId);
    const message = await findVisibleMessage(this.deps.db, chatId, messageId).catch(() => null);
    if (!message || message.role === 'system') throw notFound();
    if (message.state === 'streaming' || (await hasLiveReply(this.deps.db, chatId))) throw conflict();
    return { chat, message };
  }

  /** Whether the chat may change the row in place (its own, and no branch reads it). */
  private async ownsAlone(chatId: string, row: { chatId: string; seq: number }): Promise<boolean> {
    return row.chatId === chatId && !(await isShared(this.deps.db, row));
  }

  /**
   * Edits a message. The user's own message (or a greeting) takes the new text, marked edited;
   * a character's reply is rewritten as a new alternative (shown, marked edited; the original
   * stays as a swipe). A row another chat shares is never changed: the edit is this chat's own.
   */
  async edit(userId: string, chatId: string, messageId: string, text: string): Promise<Message> {
    const { db } = this.deps;
    const { message } = await this.editable(userId, chatId, messageId);
    if (message.kind !== MessageKind.Text)
      throw new AppError('cannot_edit', { status: 409, detail: 'A picture cannot be edited' });
    const at = this.now();
    if (message.role === 'bot' && message.replyTo) {
      const alone = await this.ownsAlone(chatId, message);
      // A shared reply is hidden in this chat only; the rewrite is this chat's own row.
      if (!alone) await overrideDeleted(db, chatId, [message.id]);
      const row = await insertEditedReply(db, message, chatId, text, at, alone);
      return this.present((await findVisibleMessage(db, chatId, row.id))!);
    }
    if (await this.ownsAlone(chatId, message)) await editMessageText(db, message.id, text, at);
    else await overrideText(db, chatId, message.id, text, at);
    return this.present((await findVisibleMessage(db, chatId, message.id))!);
  }

  /**
   * Deletes a message (a reply with its alternatives), or with `from` it and everything after
   * it. Rows the chat has alone are deleted (their files removed, `onMessagesDeleted` told);
   * rows another chat of the tree shares are hidden in this chat only.
   */
  async delete(userId: string, chatId: string, messageId: string, from: boolean): Promise<DeletedMessages> {
    const { db } = this.deps;
    const { message } = await this.editable(userId, chatId, messageId);
    const rows = from ? await visibleFrom(db, chatId, message.seq) : await this.oneMessage(chatId, message);
    const shared = rows.filter((r) => r.shared).map((r) => r.id);
    await overrideDeleted(db, chatId, shared);
    const deleted = await deleteOwnMessages(
      db,
      chatId,
      rows.filter((r) => !r.shared).map((r) => r.id),
    );
    await this.afterDelete(userId, chatId, deleted);
    return { removed: [...shared, ...deleted.ids] };
  }

  /** A message and, for a reply, its alternatives — each with whether another chat shares it. */
  private async oneMessage(chatId: string, message: MessageWithAlts) {
    const rows =
      message.role === 'bot' && message.replyTo
        ? await replyGroup(this.deps.db, message.chatId, message.replyTo)
        : [{ id: message.id, seq: message.seq, chatId: message.chatId }];
    return Promise.all(rows.map(async (r) => ({ id: r.id, shared: !(await this.ownsAlone(chatId, r)) })));
  }

  private async afterDelete(userId: string, chatId: string, deleted: { ids: string[]; media: MessageMedia[] }) {
    if (deleted.ids.length === 0) return;
    try {
      await this.deps.onMessagesDeleted?.({ userId, chatId, messageIds: deleted.ids });
      if (this.deps.storage && deleted.media.length > 0)
        await deleteChatMedia(this.deps.storage, userId, deleted.media);
    } catch (error) {
      // The messages are gone; what is left behind is the operator's to clear, not the user's error.
      this.deps.log?.warn({ err: error, messages: deleted.ids.length }, 'messages deleted; a follow-up failed');
    }
  }

  /** A new chat branched at a message: its history up to it, shared (constant time). */
  async branch(userId: string, chatId: string, messageId: string): Promise<Chat> {
    const { db } = this.deps;
    const owned = requireOwnedChat(db, userId, chatId);
    const fork = await readWhenAllowed(owned, () => findVisibleMessage(db, chatId, messageId).catch(() => null));
    const chat = await owned;
    if (!fork) throw notFound();
    if (fork.state === 'streaming') throw conflict();
    const branch = await insertBranch(db, chat, fork, chat.title);
    return this.presentChat(branch);
  }

  /** A chat as the API answers it: its last shown message from its whole (shared) history. */
  async presentChat(chat: ChatRow): Promise<Chat> {
    const bot = await this.deps.bots.findBotById(chat.botId);
    if (!bot) throw notFound();
    const [last] = await visibleMessages(this.deps.db, chat.id, { limit: 1, direction: 'desc', realOnly: true });
    return presentChat(chat, bot, last ?? null, this.deps.urls);
  }

  /** The chat's tree: its root and every branch, oldest first, with their message counts. */
  async tree(userId: string, chatId: string): Promise<ChatTree> {
    const chat = await requireOwnedChat(this.deps.db, userId, chatId);
    const rootId = chat.rootChatId ?? chat.id;
    const rows = await branchTree(this.deps.db, userId, rootId);
    return {
      root_id: rootId,
      chats: rows.map(({ chat: c, messageCount }) => ({
        id: c.id,
        parent_chat_id: c.parentChatId,
        fork_message_id: c.forkMessageId,
        title: c.title,
        created_at: c.createdAt.toISOString(),
        updated_at: c.updatedAt.toISOString(),
        message_count: messageCount,
      })),
    };
  }

  /** Full-text search in the chat's history (docs/chat.md "Search in a chat"). */
  async search(userId: string, chatId: string, q: string, locale: Locale): Promise<ChatSearch> {
    const hits = await readWhenAllowed(requireOwnedChat(this.deps.db, userId, chatId), () =>
      searchChat(this.deps.db, chatId, q, locale),
    );
    return { results: hits.map((hit) => ({ message: this.present(hit.row), highlights: hit.highlights })) };
  }

  /** A page of the history around a message (a search hit): it, the older and the newer ones. */
  async around(userId: string, chatId: string, messageId: string, size = AROUND_PAGE): Promise<Around> {
    const { db } = this.deps;
    const target = await readWhenAllowed(requireOwnedChat(db, userId, chatId), () =>
      findVisibleMessage(db, chatId, messageId).catch(() => null),
    );
    if (!target) throw notFound();
    const half = Math.ceil(size / 2);
    const [older, newer] = await Promise.all([
      visibleMessages(db, chatId, { beforeSeq: target.seq + 1, limit: half + 1, direction: 'desc' }),
      visibleMessages(db, chatId, { afterSeq: target.seq, limit: size - half + 1, direction: 'asc' }),
    ]);
    const olderShown = older.slice(0, half);
    const newerShown = newer.slice(0, size - half);
    return {
      results: [...newerShown.reverse(), ...olderShown].map((r) => this.present(r)),
      next_param: older.length > half ? encodeCursor([olderShown[olderShown.length - 1]!.seq]) : null,
      has_newer: newer.length > size - half,
    };
  }
}
