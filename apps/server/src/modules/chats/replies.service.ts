import { randomUUID } from 'node:crypto';
import type { Locale, Message, SendMessageBody, StreamEvent } from '@reverie/shared';
import { MessageKind } from '@reverie/shared';
import type { Database } from '../../db/client.js';
import { AppError, notFound } from '../../lib/errors.js';
import { estimateTokens } from '../../providers/llm/llm.js';
import type { MediaUrls } from '../../lib/media-urls.js';
import { findBotById } from '../bots/index.js';
import { findChatContext, findUserName, promptHistory, type PromptRow } from './chat-context.repository.js';
import { type ChatRow } from './chats.repository.js';
import { LIVE_REPLY_INDEX, hasLiveReply } from './live-replies.repository.js';
import {
  cutSpokenReply,
  findByClientId,
  findMessage,
  findSelectedReply,
  insertAlternative,
  insertMessages,
  type MessageRow,
  type NewMessage,
} from './messages.repository.js';
import { recordSafetyEvent } from './safety-events.repository.js';
import { presentMessage } from './chats.presenter.js';
import { requireOwnedChat } from './chats.service.js';
import { EventQueue, type Generation } from './generations.js';
import type { LiveReplies } from './live-replies.js';
import type { GenerationContext, GenerationRunner } from './runner.js';
import { errorEvent } from './runner.js';
import type { MemorySummaries } from './summaries.js';
import {
  crisisReply,
  disclosureText,
  needsDisclosure,
  refusalText,
  signalsCrisis,
  violatesMinorsPolicy,
} from './safety.js';

/** What the replies need from the pictures module (issue 7), structurally. */
export interface PictureReplier {
  isPictureRequest(text: string): boolean;
  reply(args: { chatId: string; userId: string; botId: string; replyTo: string; locale: string }): Promise<string>;
}

/** The fair-use limit of chat messages (sends and regenerations), counted for the whole cluster. */
export interface MessageLimiter {
  /** Counts one message of the user; answers the seconds to wait when over the limit, else 0. */
  take(userId: string): Promise<number>;
}

interface Logger {
  warn(object: object, message?: string): void;
}

export interface RepliesDeps {
  db: Database;
  urls: MediaUrls;
  pictures: PictureReplier | null;
  log: Logger;
  live: LiveReplies;
  runner: GenerationRunner;
  summaries: MemorySummaries;
  limiter: MessageLimiter;
  /** The most tokens a prompt can hold (the largest context in the catalogue): the history read stops there. */
  historyBudget: number;
  /** A send's messages commit without waiting for the disk (`db/commit-mode.ts`; CHAT_SYNCHRONOUS_COMMIT). */
  relaxedCommit?: boolean;
  now?: () => Date;
}

/** The most history messages a prompt is built from (the builder keeps what fits). */
const PROMPT_HISTORY_LIMIT = 200;

/** The name of the unique index a failed insert violated; null when it was no unique violation. */
function violatedUniqueIndex(error: unknown): string | null {
  for (
    let e = error as { code?: string; constraint_name?: string; constraint?: string; cause?: unknown } | undefined;
    e;
  ) {
    if (e.code === '23505') return e.constraint_name ?? e.constraint ?? '';
    e = e.cause as typeof e;
  }
  return null;
}

const conflict = () => new AppError('generation_in_progress', { status: 409 });

/** A promise settled from outside. */
interface Settle<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(reason: unknown): void;
}

function settleLater<T>(): Settle<T> {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}

/**
 * Sending, regenerating, stopping and attaching (docs/chat.md): every call answers the
 * events of its stream as an `EventQueue` the route pipes into the SSE writer. The reply is
 * written by the `GenerationRunner`; who generates it and who may watch or stop it from any
 * replica is `LiveReplies`' business.
 */
export class RepliesService {
  private readonly background = new Set<Promise<unknown>>();

  constructor(private readonly deps: RepliesDeps) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  private present(row: MessageRow): Message {
    return presentMessage(row, this.deps.urls);
  }

  private async takeRateLimit(userId: string, counted?: Promise<number>): Promise<void> {
    const wait = await (counted ?? this.deps.limiter.take(userId));
    if (wait > 0) throw new AppError('rate_limited', { status: 429, headers: { 'retry-after': String(wait) } });
  }

  /**
   * The final events of a saved reply: the message, then — for a reply that was followed live
   * and failed — an `error` (a reply found already ended is only its message).
   */
  private finalEvents(row: MessageRow, locale: Locale | null): StreamEvent[] {
    const message = this.present(row);
    if (row.kind !== MessageKind.Text) return [{ event: 'image', data: message }];
    const events: StreamEvent[] = [{ event: 'bot_message', data: message }];
    if (locale && row.state === 'failed') events.push(errorEvent(locale, message));
    return events;
  }

  /** Streams a live generation of this process into the queue, from its text so far. */
  private follow(generation: Generation, queue: EventQueue): void {
    queue.push({ event: 'bot_message', data: generation.snapshot() });
    const detach = generation.subscribe((event) => queue.push(event));
    void generation.done.then(() => queue.end());
    queue.onClose(detach);
  }

  /** Streams a saved reply into the queue: live to its end wherever it is generated, or as saved. */
  private async streamReply(row: MessageRow, queue: EventQueue, locale: Locale): Promise<EventQueue> {
    const local = this.deps.live.local(row.id);
    if (local && !local.isFinished) {
      this.follow(local, queue);
      return queue;
    }
    // Its owner died (lease run out): it ends here, interrupted, with the text last saved.
    const dead = row.state === 'streaming' && (await this.deps.live.sweep({ messageId: row.id })) > 0;
    if (dead || row.state !== 'streaming' || row.owner === this.deps.live.instanceId) {
      const saved = row.state === 'streaming' ? await findMessage(this.deps.db, row.chatId, row.id) : row;
      for (const event of this.finalEvents(saved ?? row, null)) queue.push(event);
      queue.end();
      return queue;
    }
    queue.push({ event: 'bot_message', data: this.present(row) });
    await this.deps.live.watch(row, queue, (saved) => this.finalEvents(saved, locale));
    return queue;
  }

  /** The events that replay a message already sent with this `client_id` (no second message). */
  private async replay(chatId: string, userMessage: MessageRow, locale: Locale): Promise<EventQueue> {
    const queue = new EventQueue([{ event: 'user_message', data: this.present(userMessage) }]);
    const reply = await findSelectedReply(this.deps.db, chatId, userMessage.id);
    if (!reply) {
      queue.end();
      return queue;
    }
    return this.streamReply(reply, queue, locale);
  }

  /** Starts generating the reply row just written (owned by this replica), streamed into `queue`. */
  private start(generation: Generation, reply: Message, queue: EventQueue, context: GenerationContext): void {
    this.attachGeneration(generation, reply, queue);
    this.launch(generation, context);
  }

  /** The generation writes this reply row: it becomes stoppable and watchable, streamed into `queue`. */
  private attachGeneration(generation: Generation, reply: Message, queue: EventQueue): void {
    generation.bind(reply);
    this.deps.live.register(generation);
    this.follow(generation, queue);
  }

  /** Runs the generation in the background (awaited by `idle` and `close`). */
  private launch(generation: Generation, context: GenerationContext): void {
    const run = this.deps.runner.run(generation, context);
    this.background.add(run);
    void run.finally(() => this.background.delete(run));
  }

  /**
   * Inserts rows that hold a new live reply; a chat whose live reply's owner died gets that
   * reply ended first (one retry); a chat with a live reply answers 409.
   */
  private async insertLive<T>(chatId: string, insert: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await insert();
      } catch (error) {
        if (violatedUniqueIndex(error) !== LIVE_REPLY_INDEX) throw error;
        if (attempt > 0 || (await this.deps.live.sweep({ chatId })) === 0) throw conflict();
      }
    }
  }

  /**
   * Sends a user message and answers its stream. `spoken` (voice calls, docs/calls.md): the
   * message was said in a call, and every message it produces (notices, the reply) is saved
   * as spoken too.
   */
  async send(
    userId: string,
    chatId: string,
    body: SendMessageBody,
    locale: Locale,
    options: { spoken?: boolean } = {},
  ): Promise<EventQueue> {
    const { db, live } = this.deps;
    const text = body.text.trim();
    // What the text alone decides: refused by the minors guard, the crisis protocol, a picture.
    const refused = violatesMinorsPolicy(text);
    const crisis = !refused && signalsCrisis(text);
    const picture = !refused && !crisis && this.deps.pictures?.isPictureRequest(text) === true;
    const wantsReply = !refused && !crisis && !picture;
    // The fair-use limit is counted meanwhile (a round trip to Redis or PostgreSQL).
    const counted = this.deps.limiter.take(userId);
    counted.catch(() => undefined);
    // The chat and the prompt's history in one statement (the history only when the chat is
    // the user's).
    const context = await findChatContext(
      db,
      chatId,
      userId,
      wantsReply ? { limit: PROMPT_HISTORY_LIMIT, budget: this.deps.historyBudget } : undefined,
    ).catch(() => null);
    if (!context) throw notFound();
    const earlier = context.history;
    const { chat, bot, userName } = context;
    await this.takeRateLimit(userId, counted);

    const now = this.now();
    const base = {
      chatId,
      userId,
      kind: MessageKind.Text,
      state: 'done' as const,
      ...(options.spoken ? { spoken: true } : {}),
    };
    const userMessageId = randomUUID();
    const rows: NewMessage[] = [];
    let safetyEvent: 'minors_input' | 'crisis' | null = null;
    let disclose = false;
    const liveReply = (): NewMessage => ({
      ...base,
      role: 'bot',
      state: 'streaming',
      text: '',
      replyTo: userMessageId,
      owner: live.instanceId,
      leaseMs: live.leaseMs,
    });

    if (refused) {
      // The minors guard on input: the message is refused and its text is not kept.
      safetyEvent = 'minors_input';
      rows.push(
        {
          ...base,
          id: userMessageId,
          clientId: body.client_id,
          role: 'user',
          text: '',
          state: 'failed',
          errorCode: 'refused',
        },
        { ...base, role: 'system', text: refusalText(locale), notice: 'refusal' },
      );
    } else {
      rows.push({ ...base, id: userMessageId, clientId: body.client_id, role: 'user', text });
      disclose = needsDisclosure(chat.disclosedAt, chat.updatedAt, now);
      if (disclose)
        rows.push({ ...base, role: 'system', text: disclosureText(locale, bot.name), notice: 'ai_disclosure' });
      if (crisis) {
        // The crisis protocol: a fixed reply from the platform, never an improvised one.
        safetyEvent = 'crisis';
        rows.push({ ...base, role: 'system', text: crisisReply(locale), notice: 'crisis' });
      } else if (!picture) rows.push(liveReply());
    }

    // The reply's generation starts while its rows are written: the model's request goes out
    // now, and nothing of it is shown or saved before the rows exist (`written`). A refused
    // insert (409, the same client_id again) cancels it.
    let early: { generation: Generation; written: Settle<number> } | null = null;
    if (earlier && rows.some((row) => row.role === 'bot')) {
      // The history was read before the insert; the user's message as it will be saved; its seq is only known once written (nothing in
      // the prompt reads it: the message is the last of the history).
      const asked: PromptRow = {
        id: userMessageId,
        seq: Number.MAX_SAFE_INTEGER,
        role: 'user',
        text,
        tokens: estimateTokens(text),
      };
      const written = settleLater<number>();
      const generation = live.create(chatId, userId);
      this.launch(generation, {
        chat,
        bot,
        userName,
        locale,
        history: Promise.resolve([...earlier, asked]),
        throughSeq: 0,
        written: written.promise,
      });
      early = { generation, written };
    }

    // No reply of its own: still none while another one is being written.
    if (!wantsReply && (await hasLiveReply(db, chatId)) && (await live.sweep({ chatId })) === 0) throw conflict();
    let inserted: MessageRow[];
    try {
      inserted = await this.insertLive(chatId, () =>
        insertMessages(db, chatId, rows, disclose ? { disclosedAt: now } : {}, this.deps.relaxedCommit),
      );
    } catch (error) {
      early?.written.reject(error);
      // The same client_id sent again (or twice at the same moment): the first one made it,
      // and its reply may still be live (then either unique index may be the one reported).
      if (
        violatedUniqueIndex(error) === null &&
        !(error instanceof AppError && error.code === 'generation_in_progress')
      )
        throw error;
      const first = await findByClientId(db, chatId, body.client_id);
      if (!first) throw error;
      return this.replay(chatId, first, locale);
    }
    if (safetyEvent) {
      await recordSafetyEvent(db, { userId, kind: safetyEvent, locale });
      if (safetyEvent === 'minors_input')
        this.deps.log.warn({ userId, chatId }, 'a message was refused by the minors guard');
    }
    const user = inserted[0]!;
    const queue = new EventQueue([{ event: 'user_message', data: this.present(user) }]);
    for (const row of inserted.slice(1))
      if (row.role === 'system') queue.push({ event: 'system_message', data: this.present(row) });

    let reply = inserted.find((r) => r.role === 'bot');
    if (early && reply) {
      this.attachGeneration(early.generation, this.present(reply), queue);
      early.written.resolve(user.seq);
      return queue;
    }
    const history = promptHistory(db, chatId, {
      throughSeq: user.seq,
      afterSeq: chat.memoryThroughSeq,
      limit: PROMPT_HISTORY_LIMIT,
      budget: this.deps.historyBudget,
    });

    if (picture) {
      const image = await this.pictureReply(chat, user, locale);
      if (image) {
        queue.push({ event: 'image', data: image });
        queue.end();
        return queue;
      }
      // No picture could be sent (no gallery, storage failure): the character answers in words.
      [reply] = await this.insertLive(chatId, () =>
        insertMessages(db, chatId, [liveReply()], {}, this.deps.relaxedCommit),
      );
    }
    if (!reply) {
      queue.end();
      return queue;
    }
    this.start(live.create(chatId, userId), this.present(reply), queue, {
      chat,
      bot,
      userName,
      locale,
      history,
      throughSeq: user.seq,
    });
    return queue;
  }

  private async pictureReply(chat: ChatRow, user: MessageRow, locale: Locale): Promise<Message | null> {
    try {
      const id = await this.deps.pictures!.reply({
        chatId: chat.id,
        userId: chat.userId,
        botId: chat.botId,
        replyTo: user.id,
        locale,
      });
      const row = await findMessage(this.deps.db, chat.id, id);
      return row ? this.present(row) : null;
    } catch (error) {
      this.deps.log.warn({ err: error, chatId: chat.id }, 'the picture reply failed; answering in words');
      return null;
    }
  }

  /** A new alternative of a bot reply (or, for a failed reply, the same reply again). */
  async regenerate(userId: string, chatId: string, messageId: string, locale: Locale): Promise<EventQueue> {
    const { db, live } = this.deps;
    const chat = await requireOwnedChat(db, userId, chatId);
    const target = await findMessage(db, chatId, messageId).catch(() => null);
    if (!target || target.role !== 'bot') throw notFound();
    if (!target.replyTo || target.kind !== MessageKind.Text)
      throw new AppError('cannot_regenerate', { status: 409, detail: 'This message cannot be regenerated' });
    if (target.state === 'streaming') throw conflict();
    await this.takeRateLimit(userId);
    const userMessage = await findMessage(db, chatId, target.replyTo);
    if (!userMessage) throw notFound();
    const bot = (await findBotById(db, chat.botId))!;
    const reply = await this.insertLive(chatId, () =>
      insertAlternative(db, target, { owner: live.instanceId, leaseMs: live.leaseMs }),
    );
    const fresh = (await findMessage(db, chatId, reply.id))!;
    const history = promptHistory(db, chatId, {
      throughSeq: userMessage.seq,
      afterSeq: chat.memoryThroughSeq,
      limit: PROMPT_HISTORY_LIMIT,
      budget: this.deps.historyBudget,
    });
    const userName = await findUserName(db, userId);
    const queue = new EventQueue();
    this.start(live.create(chatId, userId), this.present(fresh), queue, {
      chat,
      bot,
      userName,
      locale,
      history,
      throughSeq: userMessage.seq,
    });
    return queue;
  }

  /** Attaches to a reply: live to its end (whichever replica writes it), else as saved. */
  async attach(userId: string, chatId: string, messageId: string, locale: Locale): Promise<EventQueue> {
    await requireOwnedChat(this.deps.db, userId, chatId);
    const message = await findMessage(this.deps.db, chatId, messageId).catch(() => null);
    if (!message) throw notFound();
    return this.streamReply(message, new EventQueue(), locale);
  }

  /** Stops the chat's live reply, on whichever replica it runs; its partial text is kept. */
  async stop(userId: string, chatId: string): Promise<void> {
    await requireOwnedChat(this.deps.db, userId, chatId);
    await this.deps.live.stop(chatId);
  }

  /**
   * A reply said in a call and interrupted (docs/calls.md "Barge-in"): its saved text becomes
   * what the user actually heard, state `stopped`. Only a finished spoken reply of the user's
   * chat is touched (never a text message); answers whether it was.
   */
  async cutSpokenReply(userId: string, chatId: string, messageId: string, text: string): Promise<boolean> {
    return cutSpokenReply(this.deps.db, { userId, chatId, messageId }, text);
  }

  /** Waits until the replies started here and the summaries are done — for tests. */
  async idle(): Promise<void> {
    while (this.background.size > 0) await Promise.allSettled([...this.background]);
    await this.deps.summaries.idle();
  }

  /** Ends this replica's live replies (shutdown) and waits until they are saved. */
  async close(): Promise<void> {
    await this.deps.live.close();
    await Promise.allSettled([...this.background]);
    // Every save asked for is written before the database closes.
    await this.deps.runner.saves.close();
  }
}
