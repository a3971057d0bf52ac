import { randomUUID } from 'node:crypto';
import type { Locale, Message, SendMessageBody, StreamEvent } from '@reverie/shared';
import { MessageKind } from '@reverie/shared';
import type { Database } from '../../db/client.js';
import { violatedUniqueIndex } from '../../db/errors.js';
import { AppError, notFound } from '../../lib/errors.js';
import type { MediaUrls } from '../../lib/media-urls.js';
import {
  findChatContext,
  findUserName,
  promptHistory,
  type ChatContext,
  type PromptRow,
} from './chat-context.repository.js';
import { findChatById, type ChatRow } from './chats.repository.js';
import { LIVE_REPLY_INDEX, hasLiveReply } from './live-replies.repository.js';
import { findVisibleMessage as findMessage, isShared, overrideDeleted } from './branches.repository.js';
import {
  cutSpokenReply,
  findByClientId,
  findSelectedReply,
  insertAlternative,
  insertMessages,
  type MessageRow,
} from './messages.repository.js';
import { recordSafetyEvent } from './safety-events.repository.js';
import { presentMessage } from './chats.presenter.js';
import type { ChatBots } from './chats.service.js';
import { EventQueue, type Generation } from './generations.js';
import type { LiveReplies } from './live-replies.js';
import type { GenerationContext, GenerationRunner, ReplyRow } from './runner.js';
import { errorEvent } from './runner.js';
import { fairUseRefusal, planSend, screenMessage, type SendPlan } from './send-plan.js';
import type { LlmProvider as Llm } from '../../providers/llm/llm.js';
import {
  findSceneChat,
  memberSceneOwner,
  ownerLocale,
  setContinueRemaining,
  takeContinueTurn,
  type StoredSpeaker,
} from './scenes.repository.js';
import {
  characterSpeaker,
  chooseSpeaker,
  isMultiplayer,
  loadCast,
  personSpeaker,
  sceneGeneration,
} from './scene-cast.js';
import type { SceneEvents } from './scene-events.js';
import type { MemorySummaries } from './summaries.js';
import type { PictureReplyArgs } from '../pictures/index.js';
import type { ServiceLog } from '../../lib/logger.js';

/** What the replies need from the pictures module (issue 7), structurally. */
export interface PictureReplier {
  isPictureRequest(text: string): boolean;
  reply(args: PictureReplyArgs): Promise<string>;
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
  /** Told after a user's message is written (the companion module plans again; never awaited). */
  onUserMessage?: (userId: string, chatId: string) => void;
  /**
   * Told when a picture the user asked for has landed in the chat (the push notice's durable
   * check is queued before the answer ends; a failure is logged by it, never thrown).
   */
  onPictureLanded?: (picture: { userId: string; chatId: string; messageId: string }) => Promise<void>;
  /** Told after a person's message is written in a scene (the others' badges; never awaited). */
  onSceneMessage?: (chatId: string, authorId: string) => void;
  /** Group scenes (docs/groups.md): the model that names the next speaker when the rule cannot, and the scenes' live events. */
  llm?: Pick<Llm, 'generate' | 'models'>;
  scenes?: SceneEvents;
}

/** What a reply is written with besides its history: the chat, the character, the user's name, a scene's setting. */
type ReplyBase = Omit<GenerationContext, 'history' | 'locale'>;

/** The most history messages a prompt is built from (the builder keeps what fits). */
export const PROMPT_HISTORY_LIMIT = 200;

const conflict = () => new AppError('generation_in_progress', { status: 409 });

/**
 * Sending, regenerating, stopping and attaching (docs/chat.md): every call answers the
 * events of its stream as an `EventQueue` the route pipes into the SSE writer. The reply is
 * written by the `GenerationRunner`; who generates it and who may watch or stop it from any
 * replica is `LiveReplies`' business.
 */
export class RepliesService {
  constructor(private readonly deps: RepliesDeps) {
    deps.live.onExpired((ended) => {
      for (const { id, chatId } of ended) void this.afterExpired(chatId, id);
    });
  }

  /** The most tokens a prompt's history is read up to. */
  get historyBudget(): number {
    return this.deps.historyBudget;
  }

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
    if (context.chat.isGroup) this.followScene(generation, context.chat);
    this.deps.runner.start(generation, context, throughSeq);
  }

  /** Messages just written in a scene go to its people on every replica (a private one to its person only). */
  private announce(rows: MessageRow[]): void {
    const scenes = this.deps.scenes;
    if (!scenes) return;
    for (const row of rows)
      void scenes
        .message(row.chatId, this.present(row), row.privateTo)
        .catch((error: unknown) =>
          this.deps.log.warn({ err: error, chatId: row.chatId }, 'could not announce a scene message'),
        );
  }

  /**
   * A character's reply in a scene: its final message goes to every person, then a running
   * "Continue" takes its next turn (docs/groups.md) — on this replica, which wrote the reply.
   */
  private followScene(generation: Generation, chat: ChatRow): void {
    const detach = generation.subscribe((event) => {
      if (event.event === 'bot_message' && event.data.state !== 'streaming')
        void this.deps.scenes?.message(chat.id, event.data).catch(() => undefined);
    });
    void generation.done.then(async () => {
      detach();
      if (generation.stopRequested) return;
      await this.continueTurn(chat.id).catch((error: unknown) =>
        this.deps.log.warn({ err: error, chatId: chat.id }, 'a scene could not continue'),
      );
    });
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
        if (attempt > 0 || (await this.deps.live.sweep({ chatId }, { takeover: true })) === 0) throw conflict();
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
    const history = screening.wantsReply ? { limit: PROMPT_HISTORY_LIMIT, budget: this.deps.historyBudget } : undefined;
    // The pair's memories for the prompt, when this chat's last turns are known: asked first,
    // since theirs is the send's longest read (docs/memory.md "Retrieval"). Only for the turns
    // noted for this user in this chat; the runner checks them against the history read below.
    const memoriesAhead = history ? this.deps.runner.readMemoriesAhead(chatId, userId, text) : null;
    // The fair-use limit is counted meanwhile (a round trip to Redis or PostgreSQL): the
    // sender's own, in a scene too.
    const counted = this.deps.limiter.take(userId);
    counted.catch(() => undefined);
    // The chat and the prompt's history in one statement (the history only when the chat is
    // the user's, and only when the model is to answer), read while the limits count.
    const reading = findChatContext(this.deps.db, chatId, userId, history).catch(() => null);
    if (options.admitted) await this.admit(userId, counted, options.admitted);
    // A member of someone's scene (docs/groups.md) sends into the owner's chat.
    const context = (await reading) ?? (await this.memberContext(chatId, userId, history));
    if (!context) throw notFound();
    await this.takeRateLimit(userId, counted);
    const plan = planSend(screening, {
      text,
      clientId: body.client_id,
      chatId,
      userId: context.chat.userId,
      locale,
      spoken: options.spoken === true,
      now: this.now(),
      userMessageId: randomUUID(),
      chat: context.chat,
      characterName: context.bot.name,
      owner: this.deps.live,
    });
    const base = context.chat.isGroup
      ? await this.planScene(plan, context, userId, locale)
      : { chat: context.chat, bot: context.bot, userName: context.userName, stored: context.stored };
    return this.carryOut(plan, context, { ...base, memoriesAhead }, locale);
  }

  /** The owner's chat context for an active member of their scene; null for anyone else. */
  private async memberContext(
    chatId: string,
    userId: string,
    history: { limit: number; budget: number } | undefined,
  ): Promise<ChatContext | null> {
    const owner = await memberSceneOwner(this.deps.db, chatId, userId).catch(() => null);
    return owner ? findChatContext(this.deps.db, chatId, owner, history) : null;
  }

  /**
   * A send in a group scene (docs/groups.md): the message records its person (several people),
   * a crisis or refusal is private to them, a running "Continue" ends, and the character who
   * answers is chosen (`turns.ts`) — the reply is hers, or none at all.
   */
  private async planScene(plan: SendPlan, context: ChatContext, actorId: string, locale: Locale): Promise<ReplyBase> {
    const cast = await loadCast(this.deps.db, context.chat);
    const actor = cast.people.find((p) => p.userId === actorId) ?? cast.people[0]!;
    const shared = isMultiplayer(cast);
    const privateTo = shared && plan.safetyEvent ? actorId : null;
    for (const row of plan.rows) {
      if (row.role === 'user' && shared) Object.assign(row, { speaker: personSpeaker(actor), authorId: actorId });
      if (privateTo && row.notice !== 'ai_disclosure') row.privateTo = privateTo;
    }
    if (context.chat.continueRemaining > 0) await setContinueRemaining(this.deps.db, context.chat.id, 0);
    plan.asked.speaker = shared ? personSpeaker(actor) : null;
    const reply = plan.rows.find((r) => r.role === 'bot');
    const speakerId =
      plan.answer === 'none' || !this.deps.llm
        ? null
        : await chooseSpeaker(
            { llm: this.deps.llm, log: this.deps.log },
            cast,
            [...(context.history ?? []), plan.asked],
            'person',
          );
    if (!speakerId) {
      // Nobody answers (manual turns, or only the last speaker left): no live reply is written.
      plan.rows = plan.rows.filter((r) => r !== reply);
      Object.assign(plan, { answer: 'none', writesLiveReply: false });
      return { chat: context.chat, bot: context.bot, userName: context.userName };
    }
    const bot = cast.characters.find((c) => c.bot.id === speakerId)!.bot;
    if (reply) reply.speaker = characterSpeaker(bot, this.deps.urls, context.chat.userId);
    plan.wordsInstead.speaker = characterSpeaker(bot, this.deps.urls, context.chat.userId);
    const {
      history: _history,
      locale: _locale,
      ...base
    } = sceneGeneration(cast, speakerId, actor, {
      locale,
      history: Promise.resolve([]),
    });
    return base;
  }

  /**
   * Carries a send's plan out: the reply's generation starts while its rows are written (the
   * model's request goes out now, and nothing of it is shown or saved before the rows exist);
   * a refused insert (409, the same client_id again) cancels it.
   */
  private async carryOut(plan: SendPlan, context: ChatContext, base: ReplyBase, locale: Locale): Promise<EventQueue> {
    // No model request while another reply is live: the insert below answers 409 first (or,
    // the live one's writer being dead, the reply starts once the rows are in).
    const early =
      plan.answer === 'model' && context.history && !context.liveReply
        ? this.startEarly(plan, context.history, base, locale)
        : null;
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
    if (user.state !== 'failed') this.deps.onUserMessage?.(plan.userId, plan.chatId);
    if (context.chat.isGroup && user.state !== 'failed' && !user.privateTo)
      this.deps.onSceneMessage?.(plan.chatId, user.authorId ?? plan.userId);
    const queue = new EventQueue([{ event: 'user_message', data: this.present(user) }]);
    for (const row of inserted.slice(1))
      if (row.role === 'system') queue.push({ event: 'system_message', data: this.present(row) });
    const reply = inserted.find((r) => r.role === 'bot');
    if (context.chat.isGroup) this.announce(inserted);
    if (early && reply) {
      this.attachGeneration(early.generation, this.present(reply), queue);
      early.row.written(user.seq);
      return queue;
    }
    return this.answerLate(plan, base, { user, reply }, queue, locale);
  }

  /** Starts the model's reply before its rows are written, on the history read with the chat. */
  private startEarly(
    plan: SendPlan,
    read: PromptRow[],
    base: ReplyBase,
    locale: Locale,
  ): { generation: Generation; row: ReplyRow } {
    const generation = this.deps.live.create(plan.chatId, plan.userId);
    const history = Promise.resolve([...read, plan.asked]);
    const row = this.deps.runner.startBeforeRow(generation, { ...base, locale, history });
    if (base.chat.isGroup) this.followScene(generation, base.chat);
    return { generation, row };
  }

  /** A send that writes no live reply is still refused while another one is being written. */
  private async refuseWhileLive(chatId: string): Promise<void> {
    const { db, live } = this.deps;
    if ((await hasLiveReply(db, chatId)) && (await live.sweep({ chatId }, { takeover: true })) === 0) throw conflict();
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
    base: ReplyBase,
    written: { user: MessageRow; reply: MessageRow | undefined },
    queue: EventQueue,
    locale: Locale,
  ): Promise<EventQueue> {
    const { chat } = base;
    const { user } = written;
    let reply = written.reply;
    if (plan.answer === 'picture') {
      const image = await this.pictureReply(base, user, locale, plan.wordsInstead.speaker ?? null);
      if (image) {
        if (chat.isGroup) void this.deps.scenes?.message(chat.id, image).catch(() => undefined);
        // A text answer: the character has no picture left to send and says so (docs/pictures.md).
        if (image.kind === MessageKind.Text) queue.push({ event: 'bot_message', data: image });
        else {
          queue.push({ event: 'image', data: image });
          await this.deps.onPictureLanded?.({ userId: chat.userId, chatId: chat.id, messageId: image.id });
        }
        queue.end();
        return queue;
      }
      // No picture could be sent (no gallery, storage failure): the character answers in words.
      [reply] = await this.insertLive(plan.chatId, () =>
        insertMessages(this.deps.db, plan.chatId, [plan.wordsInstead], {}, this.deps.relaxedCommit),
      );
      if (chat.isGroup && reply) this.announce([reply]);
    }
    if (!reply) {
      queue.end();
      return queue;
    }
    const history = this.history(chat, user.seq);
    this.start(this.present(reply), queue, { ...base, locale, history }, user.seq);
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

  /**
   * The picture a person asked for; in a scene, sent by the character whose turn it is (the
   * base's `chat.botId` is hers, `speaker` names her on the message).
   */
  private async pictureReply(
    base: ReplyBase,
    user: MessageRow,
    locale: Locale,
    speaker: StoredSpeaker | null,
  ): Promise<Message | null> {
    const { chat } = base;
    try {
      const id = await this.deps.pictures!.reply({
        chatId: chat.id,
        userId: chat.userId,
        botId: chat.botId,
        replyTo: user.id,
        locale,
        shared: (base.scene?.prompt.people.length ?? 1) > 1,
        speaker,
      });
      const row = await findMessage(this.deps.db, chat.id, id);
      return row ? this.present(row) : null;
    } catch (error) {
      this.deps.log.warn({ err: error, chatId: chat.id }, 'the picture reply failed; answering in words');
      return null;
    }
  }

  /** The chat for its owner or an active member of its scene (docs/groups.md); 404 for anyone else. */
  private async chatFor(userId: string, chatId: string): Promise<ChatRow> {
    const found = await findSceneChat(this.deps.db, chatId, userId).catch(() => null);
    if (!found) throw notFound();
    return found.chat;
  }

  /** A new alternative of a bot reply (or, for a failed reply, the same reply again); in a scene, by the same character. */
  async regenerate(userId: string, chatId: string, messageId: string, locale: Locale): Promise<EventQueue> {
    const { db, live } = this.deps;
    const chat = await this.chatFor(userId, chatId);
    const target = await findMessage(db, chatId, messageId).catch(() => null);
    if (!target || target.role !== 'bot') throw notFound();
    if (!target.replyTo || target.kind !== MessageKind.Text)
      throw new AppError('cannot_regenerate', { status: 409, detail: 'This message cannot be regenerated' });
    if (target.state === 'streaming') throw conflict();
    const answered = await findMessage(db, chatId, target.replyTo);
    if (!answered)
      throw new AppError('cannot_regenerate', { status: 409, detail: 'The message this reply answers was deleted' });
    await this.takeRateLimit(userId);
    const base = await this.regenerationBase(chat, target, answered);
    // A reply shared with another chat of the tree is never changed: copy on write.
    const alone = target.chatId === chatId && !(await isShared(db, target));
    const reply = await this.insertLive(chatId, () =>
      insertAlternative(db, target, { owner: live.instanceId, leaseMs: live.leaseMs }, { chatId, alone }),
    );
    if (!alone) await overrideDeleted(db, chatId, [target.id]);
    const fresh = (await findMessage(db, chatId, reply.id))!;
    if (chat.isGroup) this.announce([fresh]);
    const history = this.history(chat, answered.seq);
    const queue = new EventQueue();
    this.start(this.present(fresh), queue, { ...base, locale, history }, answered.seq);
    return queue;
  }

  /** Who writes a regenerated reply: the chat's character, or in a scene the character who wrote it. */
  private async regenerationBase(chat: ChatRow, target: MessageRow, answered: MessageRow): Promise<ReplyBase> {
    if (!chat.isGroup) {
      const bot = (await this.deps.bots.findBotById(chat.botId))!;
      return { chat, bot, userName: await findUserName(this.deps.db, chat.userId) };
    }
    const cast = await loadCast(this.deps.db, chat);
    const speakerId = target.speaker?.kind === 'character' ? target.speaker.bot_id : chat.botId;
    if (!cast.characters.some((c) => c.bot.id === speakerId))
      throw new AppError('cannot_regenerate', { status: 409, detail: 'This character left the scene' });
    const person = cast.people.find((p) => p.userId === (answered.authorId ?? chat.userId)) ?? null;
    const {
      history: _h,
      locale: _l,
      ...base
    } = sceneGeneration(cast, speakerId, person, {
      locale: 'en',
      history: Promise.resolve([]),
    });
    return base;
  }

  /**
   * A character of the scene speaks now (docs/groups.md: a tapped face, or a turn of "Continue"
   * when `botId` is null — then the rule picks her); answers her reply's row, or null when nobody
   * can speak. One reply at a time per scene: 409 while another is live.
   */
  private async sceneTurn(
    chat: ChatRow,
    botId: string | null,
    locale: Locale,
    queue: EventQueue,
  ): Promise<MessageRow | null> {
    const { db, live } = this.deps;
    const cast = await loadCast(db, chat);
    const history = await this.history(chat, Number.MAX_SAFE_INTEGER);
    const speakerId =
      botId ??
      (this.deps.llm
        ? await chooseSpeaker({ llm: this.deps.llm, log: this.deps.log }, cast, history, 'continue')
        : null);
    const speaker = cast.characters.find((c) => c.bot.id === speakerId)?.bot;
    if (!speaker) return null;
    const last = history.filter((r) => r.role !== 'system').at(-1);
    const row = {
      chatId: chat.id,
      userId: chat.userId,
      role: 'bot' as const,
      kind: MessageKind.Text,
      state: 'streaming' as const,
      text: '',
      replyTo: last?.id ?? null,
      owner: live.instanceId,
      leaseMs: live.leaseMs,
      speaker: characterSpeaker(speaker, this.deps.urls, chat.userId),
    };
    const [reply] = await this.insertLive(chat.id, () =>
      insertMessages(db, chat.id, [row], {}, this.deps.relaxedCommit),
    );
    this.announce([reply!]);
    const context = sceneGeneration(cast, speaker.id, null, { locale, history: Promise.resolve(history) });
    this.start(this.present(reply!), queue, context, last?.seq ?? 0);
    return reply!;
  }

  /** `POST /api/chat/{id}/scene/speak`: this character answers now; her reply streams back. */
  async speak(userId: string, chatId: string, botId: string, locale: Locale): Promise<EventQueue> {
    const chat = await this.chatFor(userId, chatId);
    if (!chat.isGroup) throw notFound();
    await this.takeRateLimit(userId);
    const queue = new EventQueue();
    if (!(await this.sceneTurn(chat, botId, locale, queue))) throw notFound();
    return queue;
  }

  /**
   * `POST /api/chat/{id}/scene/continue`: the characters take up to `turns` turns among
   * themselves; the first starts now, each next one when the previous reply is written.
   */
  async continueScene(
    userId: string,
    chatId: string,
    turns: number,
    locale: Locale,
  ): Promise<{ continue_remaining: number; message_id: string | null }> {
    const { db } = this.deps;
    const chat = await this.chatFor(userId, chatId);
    if (!chat.isGroup) throw notFound();
    await this.takeRateLimit(userId);
    await setContinueRemaining(db, chatId, turns - 1);
    let first: MessageRow | null;
    try {
      first = await this.sceneTurn(chat, null, locale, new EventQueue());
    } catch (error) {
      await setContinueRemaining(db, chatId, 0);
      throw error;
    }
    if (!first) {
      await setContinueRemaining(db, chatId, 0);
      throw new AppError('scene_all_muted', { status: 409 });
    }
    void this.deps.scenes?.changed(chatId).catch(() => undefined);
    return { continue_remaining: turns - 1, message_id: first.id };
  }

  /**
   * A reply whose replica died was ended here (the sweep, an attach or a watcher on this
   * replica; each such reply is ended by one replica only): in a scene, its people get it as
   * ended, and a running "Continue" takes its next turn here (docs/groups.md "Across replicas").
   */
  private async afterExpired(chatId: string, messageId: string): Promise<void> {
    try {
      const chat = await findChatById(this.deps.db, chatId);
      if (!chat?.isGroup) return;
      const row = await findMessage(this.deps.db, chatId, messageId).catch(() => null);
      if (row) this.announce([row]);
      if (chat.continueRemaining > 0) await this.continueTurn(chatId);
    } catch (error) {
      this.deps.log.warn({ err: error, chatId }, 'a scene could not continue after an interrupted reply');
    }
  }

  /** The next turn of a running "Continue", if one is left (after a character's reply was written). */
  private async continueTurn(chatId: string): Promise<void> {
    const { db } = this.deps;
    const left = await takeContinueTurn(db, chatId);
    if (left === null) return;
    const chat = await findChatById(db, chatId);
    if (!chat) return;
    const locale = await ownerLocale(db, chat.userId);
    const turn = await this.sceneTurn(chat, null, locale, new EventQueue()).catch((error: unknown) => {
      if (error instanceof AppError && error.statusCode === 409) return null;
      throw error;
    });
    if (!turn) await setContinueRemaining(db, chatId, 0);
    await this.deps.scenes?.changed(chatId);
  }

  /** Attaches to a reply: live to its end (whichever replica writes it), else as saved. */
  async attach(userId: string, chatId: string, messageId: string, locale: Locale): Promise<EventQueue> {
    await this.chatFor(userId, chatId);
    const message = await findMessage(this.deps.db, chatId, messageId).catch(() => null);
    if (!message || (message.privateTo && message.privateTo !== userId)) throw notFound();
    return this.streamReply(message, new EventQueue(), locale);
  }

  /** Stops the chat's live reply (and a scene's "Continue"), on whichever replica it runs; its partial text is kept. */
  async stop(userId: string, chatId: string): Promise<void> {
    const chat = await this.chatFor(userId, chatId);
    if (chat.isGroup && chat.continueRemaining > 0) {
      await setContinueRemaining(this.deps.db, chatId, 0);
      void this.deps.scenes?.changed(chatId).catch(() => undefined);
    }
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
