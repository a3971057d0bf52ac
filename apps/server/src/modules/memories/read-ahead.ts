import type { PromptMemories } from './memories.service.js';

/**
 * Reading a send's memories ahead (docs/memory.md "Retrieval"): a prompt's memory query is its
 * last three turns, and at a send two of them — the user's previous message and the reply to
 * it — are usually the ones the previous prompt and reply of the chat ended with. This process
 * notes them per chat; the next send starts its memory statement with them and its own text
 * while the chat and its history are read, instead of after. The runner uses the result only
 * when the history read then shows exactly those turns (and the same character and budget);
 * otherwise it reads again. A chat answered on another replica, edited, swiped or restarted is
 * simply not read ahead. Nothing here is needed for correctness.
 */
export interface MemoriesAhead {
  botId: string;
  /** The turns the read-ahead query was made of (the prompt's check compares them). */
  turns: string[];
  budgetTokens: number;
  result: Promise<PromptMemories>;
}

/** Chats remembered at most (the oldest noted is dropped first). */
const MAX_CHATS = 10_000;

interface Noted {
  userId: string;
  botId: string;
  budgetTokens: number;
  asked: string;
  /** The last two turns once the reply to `asked` is known; null before. */
  turns: [string, string] | null;
}

export class TurnsAhead {
  private readonly chats = new Map<string, Noted>();

  /** A prompt's memories were read for `chatId` answering `asked`. */
  asked(chatId: string, userId: string, botId: string, budgetTokens: number, asked: string): void {
    this.chats.delete(chatId);
    this.chats.set(chatId, { userId, botId, budgetTokens, asked, turns: null });
    if (this.chats.size > MAX_CHATS) this.chats.delete(this.chats.keys().next().value!);
  }

  /** The reply was written in full (`reply`), or not (''): only a full one is read ahead with. */
  replied(chatId: string, reply: string): void {
    const noted = this.chats.get(chatId);
    if (!noted) return;
    if (reply && !noted.turns) noted.turns = [noted.asked, reply];
    else this.chats.delete(chatId);
  }

  /** The query of the next send of `userId` in `chatId` saying `text`; null when nothing is noted. */
  next(chatId: string, userId: string, text: string): Omit<MemoriesAhead, 'result'> | null {
    const noted = this.chats.get(chatId);
    if (!noted?.turns || noted.userId !== userId || !text) return null;
    return { botId: noted.botId, budgetTokens: noted.budgetTokens, turns: [...noted.turns, text] };
  }
}

/** Whether a read-ahead was made of exactly these turns, for this character and budget. */
export function aheadFits(
  ahead: MemoriesAhead | null | undefined,
  botId: string,
  turns: string[],
  budgetTokens: number,
): ahead is MemoriesAhead {
  return (
    !!ahead &&
    ahead.botId === botId &&
    ahead.budgetTokens === budgetTokens &&
    ahead.turns.length === turns.length &&
    ahead.turns.every((t, i) => t === turns[i])
  );
}
