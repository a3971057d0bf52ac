/**
 * A chat's lorebooks and what went into a reply's prompt (docs/lorebooks.md): the chat is the
 * user's (else 404); the books are the lorebooks module's.
 */
import { type ChatLorebooks, PROMPT_TRACE_LORE_MAX, type PromptTrace } from '@reverie/shared';
import type { Database } from '../../db/client.js';
import { notFound } from '../../lib/errors.js';
import type { LorebooksApi } from '../lorebooks/index.js';
import type { BuiltPrompt } from './prompt.js';
import { requireOwnedChat } from './chats.service.js';
import { findTrace } from './prompt-traces.repository.js';

export interface ChatLoreDeps {
  db: Database;
  lorebooks: Pick<LorebooksApi, 'chatBooks' | 'setChatBooks'> | null;
}

export class ChatLore {
  constructor(private readonly deps: ChatLoreDeps) {}

  private books() {
    if (!this.deps.lorebooks) throw notFound();
    return this.deps.lorebooks;
  }

  async list(userId: string, chatId: string): Promise<ChatLorebooks> {
    await requireOwnedChat(this.deps.db, userId, chatId);
    return this.books().chatBooks(userId, chatId);
  }

  async set(userId: string, chatId: string, bookIds: string[]): Promise<ChatLorebooks> {
    await requireOwnedChat(this.deps.db, userId, chatId);
    return this.books().setChatBooks(userId, chatId, bookIds);
  }

  /**
   * What went into a reply's prompt; 404 when the chat is not the user's, the reply is not in
   * the chat's history (a branch's: its own and the shared rows up to the fork) or no trace was kept.
   */
  async trace(userId: string, chatId: string, messageId: string): Promise<PromptTrace> {
    await requireOwnedChat(this.deps.db, userId, chatId);
    const row = await findTrace(this.deps.db, userId, chatId, messageId);
    if (!row) throw notFound();
    const stored = row.trace as Omit<PromptTrace, 'message_id' | 'created_at' | 'lore_omitted'> & {
      lore_omitted?: number;
    };
    return {
      ...stored,
      // Traces stored before `lore_omitted` listed every entry.
      lore_omitted: stored.lore_omitted ?? 0,
      message_id: row.messageId,
      created_at: row.createdAt.toISOString(),
    };
  }
}

/** A reply's trace as stored: the lore that fired and why, the author's note, the memories. */
export function traceOf(
  prompt: Pick<BuiltPrompt, 'lore' | 'memoryIds' | 'historyIncluded' | 'truncated' | 'authorNote'>,
  chat: { authorNote: string; authorNoteDepth: number; memory: string },
): Omit<PromptTrace, 'message_id' | 'created_at'> {
  // Those that went in first, then the others, at most PROMPT_TRACE_LORE_MAX, in insertion order.
  const listed = new Set(
    [
      ...prompt.lore.filter((f) => f.status === 'inserted'),
      ...prompt.lore.filter((f) => f.status !== 'inserted'),
    ].slice(0, PROMPT_TRACE_LORE_MAX),
  );
  return {
    lore_omitted: prompt.lore.length - listed.size,
    lore: prompt.lore
      .filter((f) => listed.has(f))
      .map((f) => ({
        book_id: f.bookId,
        book_name: f.bookName,
        entry_id: f.entryId,
        label: f.label,
        constant: f.constant,
        key: f.key,
        secondary_key: f.secondaryKey,
        probability: f.probability,
        roll: f.roll === null ? null : Math.round(f.roll * 100) / 100,
        status: f.status,
        position: f.position,
        depth: f.depth,
        tokens: f.tokens,
      })),
    // The note as the model read it ({{char}} and {{user}} replaced), and only when it fitted.
    author_note: prompt.authorNote === null ? null : { text: prompt.authorNote, depth: chat.authorNoteDepth },
    memories: prompt.memoryIds.length,
    summary: chat.memory.trim() !== '',
    history_messages: prompt.historyIncluded,
    truncated: prompt.truncated,
  };
}
