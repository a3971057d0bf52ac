import { randomUUID } from 'node:crypto';
import type { Locale, Message, SendMessageBody, StreamEvent } from '@reverie/shared';
import { MessageKind } from '@reverie/shared';
import type { Database } from '../../db/client.js';
import { AppError, notFound } from '../../lib/errors.js';
import type { MediaUrls } from '../../lib/media-urls.js';
import {
  findChatContext,
  findUserName,
  promptHistory,
  type ChatContext,
  type PromptRow,
} from './chat-context.repository.js';
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
} from './messages.repository.js';
import { recordSafetyEvent } from './safety-events.repository.js';
import { presentMessage } from './chats.presenter.js';
import { requireOwnedChat, type ChatBots } from './chats.service.js';
import { EventQueue, type Generation } from './generations.js';
import type { LiveReplies } from './live-replies.js';
import type { GenerationContext, GenerationRunner, ReplyRow } from './runner.js';
import { errorEvent } from './runner.js';
import { fairUseRefusal, planSend, screenMessage, type SendPlan } from './send-plan.js';
import type { MemorySummaries } from './summaries.js';
import type { ServiceLog } from '../../lib/logger.js';

/** What the replies need from the pictures module (issue 7), structurally. */
export interface PictureReplier {
  isPictureRequest(text: string): boolean;
  reply(args: { chatId: string; userId: string; botId: string; replyTo: string; locale: string }): Promise<string>;
}

/** The fair-use limit of chat messages (sends and regenerations), counted for the whole cluster. */
export interface MessageLimiter {
  /** Counts one message of the user; answers the seconds to wait when over the limit, else 0. */
  take(userId: string): Promise<number>;
  /** Takes back a message counted for a send that another limit refused. */
  giveBack(userId: string): Promise<void>;
}

type Logger = Pick<ServiceLog, 'warn'>;

export interface RepliesDeps {
  db: Database;
  bots: Pick<ChatBots, 'findBotById'>;
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

/**
 * Sending, regenerating, stopping and attaching (docs/chat.md): every call answers the
 * events of its stream as an `EventQueue` the route pipes into the SSE writer. The reply is
 * written by the `GenerationRunner`; who generates it and who may watch or stop it from any
 * replica is `LiveReplies`' business.
 */
export class RepliesService {
  constructor(private readonly deps: RepliesDeps) {}

  private now(): Date {
    return this.deps.now?.() ?? new Date();
  }

  private present(row: MessageRow): Message {
    return presentMessage(row, this.deps.urls);
  }

  private async takeRateLimit(userId: string, counted?: Promise<number>): Promise<void> {
    const refusal = fairUseRefusal(await (counted ?? this.deps.limiter.take(userId)));
    if (refusal) throw refusal;
  }

  /**
   * The global per-IP limit, counted meanwhile (`deferredGlobalLimit`, plugins/security.ts):
   * over it, the send is refused with its 429 before anything is written or asked of the
   * model, and the fair-use count it took meanwhile is given back (as if never counted).
   */
  private async admit(userId: string, counted: Promise<number>, admitted: Promise<unknown>): Promise<void> {
    try {
      await admitted;
    } catch (error) {
      await counted.then(() => this.deps.limiter.giveBack(userId)).catch(() => undefined);
      throw error;
    }
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
  private start(reply: Message, queue: EventQueue, context: GenerationContext, throughSeq: number): void {
    const generation = this.deps.live.create(context.chat.id, context.chat.userId);
    this.attachGeneration(generation, reply, queue);
    this.deps.runner.start(generation, context, throughSeq);
  }

  /** The generation writes this reply row: it becomes stoppable and watchable, streamed into `queue`. */
  private attachGeneration(generation: Generation, reply: Message, queue: EventQueue): void {
    generation.bind(reply);
    this.deps.live.register(generation);
    this.follow(generation, queue);
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
   * Sends a user message and answers its stream: the text screened, the chat read, the send
   * planned (`send-plan.ts`), then the plan carried out. `spoken` (voice calls, docs/calls.md):
   * the message was said in a call, and every message it produces (notices, the reply) is
   * saved as spoken too.
   */
  async send(
    userId: string,
    chatId: string,
    body: SendMessageBody,
    locale: Locale,
    options: { spoken?: boolean; admitted?: Promise<unknown> } = {},
  ): Promise<EventQueue> {
    const text = body.text.trim();
    const screening = screenMessage(text, (t) => this.deps.pictures?.isPictureRequest(t) === true);
    // The fair-use limit is counted meanwhile (a round trip to Redis or PostgreSQL).
    const counted = this.deps.limiter.take(userId);
    counted.catch(() => undefined);
    // The chat and the prompt's history in one statement (the history only when the chat is
    // the user's, and only when the model is to answer), read while the limits count.
    const reading = findChatContext(
      this.deps.db,
      chatId,
      userId,
      screening.wantsReply ? { limit: PROMPT_HISTORY_LIMIT, budget: this.deps.historyBudget } : undefined,
    ).catch(() => null);
    if (options.admitted) await this.admit(userId, counted, options.admitted);
    const context = await reading;
    if (!context) throw notFound();
    await this.takeRateLimit(userId, counted);
    const plan = planSend(screening, {
      text,
      clientId: body.client_id,
      chatId,
      userId,
      locale,
      spoken: options.spoken === true,
      now: this.now(),
      userMessageId: randomUUID(),
      chat: context.chat,
      characterName: context.bot.name,
      owner: this.deps.live,
    });
    return this.carryOut(plan, context, locale);
  }

  /**
   * Carries a send's plan out: the reply's generation starts while its rows are written (the
   * model's request goes out now, and nothing of it is shown or saved before the rows exist);
   * a refused insert (409, the same client_id again) cancels it.
   */
  private async carryOut(plan: SendPlan, context: ChatContext, locale: Locale): Promise<EventQueue> {
    // No model request while another reply is live: the insert below answers 409 first (or,
    // the live one's writer being dead, the reply starts once the rows are in).
    const early =
      plan.answer === 'model' && context.history && !context.liveReply ? this.startEarly(plan, context, locale) : null;
    if (!plan.writesLiveReply) await this.refuseWhileLive(plan.chatId);
    let inserted: MessageRow[];
    try {
      inserted = await this.insertLive(plan.chatId, () =>
        insertMessages(this.deps.db, plan.chatId, plan.rows, plan.chatValues, this.deps.relaxedCommit),
      );
    } catch (error) {
      early?.row.refused();
      return this.replayFirst(plan, error, locale);
    }
    await this.recordSafety(plan, locale);
    const user = inserted[0]!;
    const queue = new EventQueue([{ event: 'user_message', data: this.present(user) }]);
    for (const row of inserted.slice(1))
      if (row.role === 'system') queue.push({ event: 'system_message', data: this.present(row) });
    const reply = inserted.find((r) => r.role === 'bot');
    if (early && reply) {
      this.attachGeneration(early.generation, this.present(reply), queue);
      early.row.written(user.seq);
      return queue;
    }
    return this.answerLate(plan, context, { user, reply }, queue, locale);
  }

  /** Starts the model's reply before its rows are written, on the history read with the chat. */
  private startEarly(plan: SendPlan, context: ChatContext, locale: Locale): { generation: Generation; row: ReplyRow } {
    const { chat, bot, userName } = context;
    const generation = this.deps.live.create(plan.chatId, plan.userId);
    const history = Promise.resolve([...context.history!, plan.asked]);
    const row = this.deps.runner.startBeforeRow(generation, { chat, bot, userName, locale, history });
    return { generation, row };
  }

  /** A send that writes no live reply is still refused while another one is being written. */
  private async refuseWhileLive(chatId: string): Promise<void> {
    const { db, live } = this.deps;
    if ((await hasLiveReply(db, chatId)) && (await live.sweep({ chatId })) === 0) throw conflict();
  }

  /**
   * A refused insert: the same client_id sent again (or twice at the same moment) replays the
   * first, whose reply may still be live (then either unique index may be the one reported).
   */
  private async replayFirst(plan: SendPlan, error: unknown, locale: Locale): Promise<EventQueue> {
    if (violatedUniqueIndex(error) === null && !(error instanceof AppError && error.code === 'generation_in_progress'))
      throw error;
    const first = await findByClientId(this.deps.db, plan.chatId, plan.clientId);
    if (!first) throw error;
    return this.replay(plan.chatId, first, locale);
  }

  private async recordSafety(plan: SendPlan, locale: Locale): Promise<void> {
    if (!plan.safetyEvent) return;
    await recordSafetyEvent(this.deps.db, { userId: plan.userId, kind: plan.safetyEvent, locale });
    if (plan.safetyEvent === 'minors_input')
      this.deps.log.warn({ userId: plan.userId, chatId: plan.chatId }, 'a message was refused by the minors guard');
  }

  /**
   * The answer that starts once the rows are written: a picture (or her words that she has none
   * left; or, when none could be sent, the character in words), or a reply whose history is read now; none after a notice alone.
   */
  private async answerLate(
    plan: SendPlan,
    context: ChatContext,
    written: { user: MessageRow; reply: MessageRow | undefined },
    queue: EventQueue,
    locale: Locale,
  ): Promise<EventQueue> {
    const { chat, bot, userName } = context;
    const { user } = written;
    let reply = written.reply;
    if (plan.answer === 'picture') {
      const image = await this.pictureReply(chat, user, locale);
      if (image) {
        // A text answer: the character has no picture left to send and says so (docs/pictures.md).
        if (image.kind === MessageKind.Text) queue.push({ event: 'bot_message', data: image });
        else queue.push({ event: 'image', data: image });
        queue.end();
        return queue;
      }
      // No picture could be sent (no gallery, storage failure): the character answers in words.
      [reply] = await this.insertLive(plan.chatId, () =>
        insertMessages(this.deps.db, plan.chatId, [plan.wordsInstead], {}, this.deps.relaxedCommit),
      );
    }
    if (!reply) {
      queue.end();
      return queue;
    }
    const history = this.history(chat, user.seq);
    this.start(this.present(reply), queue, { chat, bot, userName, locale, history }, user.seq);
    return queue;
  }

  /** The prompt's history of a reply answering the message `throughSeq`. */
  private history(chat: ChatRow, throughSeq: number): Promise<PromptRow[]> {
    return promptHistory(this.deps.db, chat.id, {
      throughSeq,
      afterSeq: chat.memoryThroughSeq,
      limit: PROMPT_HISTORY_LIMIT,
      budget: this.deps.historyBudget,
    });
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
    const bot = (await this.deps.bots.findBotById(chat.botId))!;
    const reply = await this.insertLive(chatId, () =>
      insertAlternative(db, target, { owner: live.instanceId, leaseMs: live.leaseMs }),
    );
    const fresh = (await findMessage(db, chatId, reply.id))!;
    const history = this.history(chat, userMessage.seq);
    const userName = await findUserName(db, userId);
    const queue = new EventQueue();
    this.start(this.present(fresh), queue, { chat, bot, userName, locale, history }, userMessage.seq);
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
    await this.deps.runner.idle();
    await this.deps.summaries.idle();
  }

  /** Ends this replica's live replies (shutdown) and waits until they are saved. */
  async close(): Promise<void> {
    await this.deps.live.close();
    await this.deps.runner.close();
  }
}
