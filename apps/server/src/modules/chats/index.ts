import type { Registry } from 'prom-client';
import type { Locale, UserEvent } from '@reverie/shared';
import type { Core } from '../../core.js';
import { defineModule } from '../../lib/module.js';
import { presentBot, type BotsService } from '../bots/index.js';
import type { MemoriesApi } from '../memories/index.js';
import type { LorebooksApi } from '../lorebooks/index.js';
import { ChatLore } from './chat-lore.js';
import { chatLoreRoutes } from './chat-lore.routes.js';
import { WindowLimiter } from '../../providers/limits/index.js';
import { chatsRoutes } from './chats.routes.js';
import { ChatsService, requireOwnedChat } from './chats.service.js';
import { LiveReplies, type LiveRepliesOptions } from './live-replies.js';
import { historyReadBudget } from './prompt.js';
import { PROMPT_HISTORY_LIMIT, RepliesService, type PictureReplier, type RepliesDeps } from './replies.service.js';
import { GenerationRunner, type FinishedReply, type SummaryRequest } from './runner.js';
import { findUnreadPicture, unreadTotal } from './chats.repository.js';
import { UserEvents } from './user-events.js';
import { MemorySummaries } from './summaries.js';
import type { ImpersonateDeps } from './impersonate.js';
import { storyRoutes } from './story.routes.js';
import { StoryService, type MessagesDeleted } from './story.service.js';
import { ProactiveWriter, type ProactiveOutcome, type ProactiveRequest } from './proactive.js';
import { SceneEvents } from './scene-events.js';
import { messageSceneAccess, scenePersonIds } from './scenes.repository.js';
import { ScenesService } from './scenes.service.js';
import { scenesRoutes } from './scenes.routes.js';

export type ChatsModuleDeps = Pick<
  Core,
  'config' | 'db' | 'log' | 'llm' | 'urls' | 'storage' | 'pubsub' | 'jobs' | 'limits' | 'cache'
> & {
  /** The characters chatted with (the bots module). */
  bots: BotsService;
  /** Pictures in chat (the pictures module): a picture request is answered by it; null: never. */
  pictures: PictureReplier | null;
  /** Long-term memories (the memories module): the prompt's, citations, extraction; null: off. */
  memories: MemoriesApi | null;
  /** Lorebooks (the lorebooks module): the prompt's books, a chat's attached books; null: the card's book only. */
  lorebooks?: LorebooksApi | null;
  /**
   * Told when messages are deleted for good (issue 29); by default the memories module, which
   * drops them from its records' sources (docs/memory.md).
   */
  onMessagesDeleted?: MessagesDeleted;
  /** Timings of live replies across replicas (lease, renewal, sweep); tests shorten them. */
  liveReplies?: Pick<LiveRepliesOptions, 'leaseMs' | 'renewEveryMs' | 'sweepEveryMs' | 'pollEveryMs'>;
};

/** What other modules may ask of the chats module (the calls module opens a call's chat). */
export interface ChatsApi {
  /** The user's own chat (its id and character); 404 when it is not theirs (the calls module). */
  ownedChat(userId: string, chatId: string): Promise<{ id: string; botId: string }>;
  /** The user's latest chat with the character of `slug`, else a new one: its id. */
  chatForSlug(userId: string, slug: string, locale: Locale): Promise<string>;
  /**
   * She writes first (the companion module, docs/companion.md): the character's message in
   * the chat, written with the prompt and safety rules of a reply; one per slot.
   */
  writeFirst(request: ProactiveRequest): Promise<ProactiveOutcome>;
  /**
   * Called (in this process, after the rows are written) whenever a user's message is written
   * in one of their chats: the companion plans again and lifts its silence rule.
   */
  onUserMessage(listener: UserMessageListener): void;
  /** The user's unread character messages over all chats (the badges, a push's app-icon count). */
  unreadTotal(userId: string): Promise<number>;
  /**
   * Calls `listener` in this process for each reply written in full here (issue 31: the
   * "a long reply is ready" notification): the push module listens.
   */
  onReplyFinished(listener: (reply: FinishedChatReply) => void): void;
  /**
   * Calls `listener` (in the process that runs the check, any replica) for each picture the user
   * asked for that is still unread `PICTURE_NOTICE_DELAY_S` after it landed: the user was not
   * looking at the chat (issue 31: "she sent you a picture"); app.ts hands it to the push module.
   */
  onPictureUnseen(listener: (picture: UnseenPicture) => Promise<unknown> | void): void;
  /**
   * A character's message landed in the chat outside a reply (the companion's proactive
   * message): the user's open apps on every replica raise their badges.
   */
  messageLanded(userId: string, chatId: string): Promise<void>;
  /** Tells the user's open apps, on every replica (`GET /api/events`): e.g. their data archive is ready. */
  publishUserEvent(userId: string, event: UserEvent): Promise<void>;
  /**
   * Group scenes (docs/groups.md): the owner of the chat of a message the user may see as a
   * person of its scene, and whether it has several people (pictures unblur per person); null
   * when the user is neither its owner nor a member.
   */
  sceneAccess(userId: string, messageId: string): Promise<{ ownerId: string; shared: boolean } | null>;
}

/** A reply written in full, with what a notification shows of its character. */
export interface FinishedChatReply {
  userId: string;
  chatId: string;
  /** Its character as a notification shows it, read when first asked (null: the character is gone). */
  character(): Promise<{ name: string; slug: string; picture: string | null } | null>;
  text: string;
  tookMs: number;
}

/** A picture that landed while the user was away from the chat, with what a notification shows. */
export interface UnseenPicture {
  userId: string;
  chatId: string;
  messageId: string;
  character: { name: string; slug: string; picture: string | null };
  /** A blurred preview (kind 3): an explicit picture; never shown on a lock screen anyway. */
  blurred: boolean;
}

/** The durable check of a picture landed: one job per picture, run after the grace delay. */
export const PICTURE_NOTICE_QUEUE = 'chat-picture-notice';

/** A user wrote in a chat (their message is in the database). */
export type UserMessageListener = (userId: string, chatId: string) => void;

declare module 'fastify' {
  interface FastifyInstance {
    /** Sending and replies: the calls module sends through it; tests wait on `app.replies.idle()`. */
    replies: RepliesService;
    /** What other modules may ask of the chats module. */
    chats: ChatsApi;
  }
}

/**
 * The chats module (docs/chat.md): conversations, and replies generated by the runner, owned
 * by one replica at a time through the database (live-replies.ts) and followed from any replica.
 */
export const chatsModule = defineModule<ChatsModuleDeps>('chats', async (app, deps) => {
  const events = new UserEvents(deps.pubsub);
  const sceneEvents = new SceneEvents(deps.pubsub, deps.cache);
  const chats = new ChatsService({
    ...deps,
    events,
    imports: new WindowLimiter(deps.limits, 'chat-import', deps.config.CHAT_IMPORTS_PER_HOUR, 3_600_000),
  });
  const live = new LiveReplies({ ...deps, ...deps.liveReplies });
  await live.start();
  const summaries = memorySummaries(deps);
  const finishedListeners: Array<(reply: FinishedChatReply) => void> = [];
  const onFinished = (finished: FinishedReply) =>
    void replyFinished(deps, events, finished, finishedListeners).catch((error: unknown) =>
      deps.log.warn({ err: error, chatId: finished.chatId }, 'could not announce a finished reply'),
    );
  const messageLanded = async (userId: string, chatId: string) =>
    events.publish(userId, { type: 'unread', chat_id: chatId, unread_total: await unreadTotal(deps.db, userId) });
  const listeners: UserMessageListener[] = [];
  const pictureListeners: Array<(picture: UnseenPicture) => Promise<unknown> | void> = [];
  const onPictureLanded = pictureNotices(deps, pictureListeners);
  const runner = generationRunner(deps, { live, summaries, metrics: app.metrics, onFinished });
  const built = repliesService(deps, { live, summaries, runner, listeners, onPictureLanded, sceneEvents, events });
  const replies = built.replies;
  const proactive = new ProactiveWriter({
    db: deps.db,
    runner,
    bots: deps.bots,
    urls: deps.urls,
    historyBudget: replies.historyBudget,
    historyLimit: PROMPT_HISTORY_LIMIT,
  });
  app.decorate('replies', replies);
  app.decorate('chats', {
    ownedChat: (userId, chatId) => requireOwnedChat(deps.db, userId, chatId),
    chatForSlug: async (userId, slug, locale) => (await chats.getOrCreate(userId, { slug }, locale)).id,
    writeFirst: async (request) => {
      const outcome = await proactive.write(request);
      // Her message raises the badges of the user's open apps on every replica.
      if (outcome.status === 'written')
        await messageLanded(request.userId, request.chatId).catch((error: unknown) =>
          deps.log.warn({ err: error, chatId: request.chatId }, 'could not announce a proactive message'),
        );
      return outcome;
    },
    onUserMessage: (listener) => void listeners.push(listener),
    unreadTotal: (userId) => unreadTotal(deps.db, userId),
    onReplyFinished: (listener) => void finishedListeners.push(listener),
    onPictureUnseen: (listener) => void pictureListeners.push(listener),
    messageLanded,
    publishUserEvent: (userId, event) => events.publish(userId, event),
    sceneAccess: (userId, messageId) => messageSceneAccess(deps.db, userId, messageId),
  } satisfies ChatsApi);
  await app.register(chatsRoutes, { service: chats, replies, events });
  await app.register(chatLoreRoutes, { lore: new ChatLore({ db: deps.db, lorebooks: deps.lorebooks ?? null }) });
  await app.register(scenesRoutes, { scenes: scenesService(deps, chats, sceneEvents), replies, events: sceneEvents });
  await app.register(storyRoutes, { story: storyService(deps), lines: built.lines });
});

/** Edit, delete and branches (docs/chat.md): a message deleted for good leaves its memories' sources. */
function storyService(deps: ChatsModuleDeps): StoryService {
  const { memories } = deps;
  const onMessagesDeleted: ChatsModuleDeps['onMessagesDeleted'] =
    deps.onMessagesDeleted ?? (memories ? (event) => memories.messagesDeleted(event) : undefined);
  return new StoryService({ ...deps, onMessagesDeleted });
}

/** Group scenes (docs/groups.md): characters, people, invite links; their replies are the replies service's. */
function scenesService(deps: ChatsModuleDeps, chats: ChatsService, events: SceneEvents): ScenesService {
  return new ScenesService({
    db: deps.db,
    bots: deps.bots,
    urls: deps.urls,
    events,
    limits: deps.limits,
    publicUrl: deps.config.PUBLIC_URL,
    presentChat: (userId, chatId) => chats.get(userId, chatId),
  });
}

/**
 * A message landed in a scene: the open apps of everyone in it but its author are told, each
 * with their own unread total (docs/groups.md "Unread"), on every replica.
 */
async function sceneLanded(
  deps: Pick<ChatsModuleDeps, 'db'>,
  events: UserEvents,
  chatId: string,
  authorId: string | null,
): Promise<void> {
  const people = (await scenePersonIds(deps.db, chatId)).filter((id) => id !== authorId);
  await Promise.all(
    people.map(async (id) =>
      events.publish(id, { type: 'unread', chat_id: chatId, unread_total: await unreadTotal(deps.db, id) }),
    ),
  );
}

/** A reply landed: the user's open apps are told (badges), then the listeners (the push module). */
async function replyFinished(
  deps: ChatsModuleDeps,
  events: UserEvents,
  finished: FinishedReply,
  listeners: Array<(reply: FinishedChatReply) => void>,
): Promise<void> {
  if (finished.group) await sceneLanded(deps, events, finished.chatId, null);
  else {
    const total = await unreadTotal(deps.db, finished.userId);
    await events.publish(finished.userId, { type: 'unread', chat_id: finished.chatId, unread_total: total });
  }
  if (listeners.length === 0) return;
  // Read only for a listener that shows it (most replies are announced to nobody).
  let character: ReturnType<FinishedChatReply['character']> | null = null;
  const reply: FinishedChatReply = {
    userId: finished.userId,
    chatId: finished.chatId,
    character: () =>
      (character ??= deps.bots.findBotById(finished.botId).then((bot) => {
        if (!bot) return null;
        const shown = presentBot(bot, deps.urls, finished.userId);
        return { name: shown.name, slug: shown.slug, picture: shown.avatar_url };
      })),
    text: finished.text,
    tookMs: finished.tookMs,
  };
  for (const listener of listeners) listener(reply);
}

/**
 * A picture the user asked for has landed: a durable job looks again after
 * `PICTURE_NOTICE_DELAY_S` and, when it is still unread — the user was not looking at that chat
 * on any device (an open, visible chat marks it read as it arrives) — tells the listeners. The
 * same test of "away" as the unread badges; the push module then applies the user's choice.
 */
function pictureNotices(
  deps: ChatsModuleDeps,
  listeners: Array<(picture: UnseenPicture) => Promise<unknown> | void>,
): (picture: { userId: string; chatId: string; messageId: string }) => Promise<void> {
  const { db, jobs, log, config } = deps;
  jobs.work<{ userId: string; chatId: string; messageId: string }>(
    PICTURE_NOTICE_QUEUE,
    async (job) => {
      if (listeners.length === 0) return;
      const unread = await findUnreadPicture(db, job.userId, job.chatId, job.messageId);
      if (!unread) return;
      const bot = await deps.bots.findBotById(unread.botId);
      if (!bot) return;
      const shown = presentBot(bot, deps.urls, job.userId);
      const picture: UnseenPicture = {
        ...job,
        character: { name: shown.name, slug: shown.slug, picture: shown.avatar_url },
        blurred: unread.kind === 3,
      };
      // Awaited: the push is queued before this job is done (a failure retries the job).
      for (const listener of listeners) await listener(picture);
    },
    { concurrency: 2, retryLimit: 2, retryDelaySeconds: 10, expireInSeconds: 60 },
  );
  return async (picture) => {
    await jobs
      .send(PICTURE_NOTICE_QUEUE, picture, {
        singletonKey: picture.messageId,
        startAfterSeconds: config.PICTURE_NOTICE_DELAY_S,
      })
      .catch((error: unknown) => log.warn({ err: error, chatId: picture.chatId }, 'could not queue a picture notice'));
  };
}

/** Memory summaries are durable jobs: one per chat at a time, retried, finished by any replica. */
function memorySummaries({ config, db, llm, log, jobs }: ChatsModuleDeps): MemorySummaries {
  const summaries = new MemorySummaries({
    db,
    llm,
    log,
    idleTimeoutMs: config.LLM_TIMEOUT_S * 1000,
    queue: {
      send: async (request, chatId) => void (await jobs.send('chat-summary', request, { singletonKey: chatId })),
      idle: () => jobs.idle(['chat-summary']),
    },
  });
  jobs.work<SummaryRequest>('chat-summary', (request, signal) => summaries.run(request, signal), {
    concurrency: 1,
    retryLimit: 2,
    retryDelaySeconds: 30,
    retryBackoff: true,
    expireInSeconds: Math.max(config.LLM_TIMEOUT_S * 4, 60) + 60,
  });
  return summaries;
}

/** The runner that generates every message of a character (replies, proactive messages). */
function generationRunner(
  deps: ChatsModuleDeps,
  built: {
    live: LiveReplies;
    summaries: MemorySummaries;
    metrics: Registry;
    onFinished: (finished: FinishedReply) => void;
  },
): GenerationRunner {
  const { config, db, llm, log } = deps;
  return new GenerationRunner({
    db,
    relaxedCommit: !config.CHAT_SYNCHRONOUS_COMMIT,
    llm,
    log,
    maxTokens: config.LLM_MAX_TOKENS,
    temperature: config.LLM_TEMPERATURE,
    leaseMs: built.live.leaseMs,
    metrics: built.metrics,
    onTruncated: (request) => built.summaries.request(request),
    memories: deps.memories,
    lorebooks: deps.lorebooks ?? null,
    citations: config.MEMORY_CITATIONS,
    onFinished: built.onFinished,
  });
}

/** Sending and replies on the runner; the user's lines ("Write my reply") on the same runner and limit. */
function repliesService(
  deps: ChatsModuleDeps,
  built: {
    live: LiveReplies;
    summaries: MemorySummaries;
    runner: GenerationRunner;
    listeners: UserMessageListener[];
    onPictureLanded: RepliesDeps['onPictureLanded'];
    sceneEvents: SceneEvents;
    events: UserEvents;
  },
): { replies: RepliesService; lines: ImpersonateDeps } {
  const { config, db, llm, log } = deps;
  const { live, summaries } = built;
  const limiter = new WindowLimiter(deps.limits, 'chat', config.CHAT_MESSAGES_PER_MINUTE, 60_000);
  const historyBudget = historyReadBudget(
    llm.models().map((model) => model.contextSize),
    config.LLM_MAX_TOKENS,
  );
  const { runner } = built;
  const replies = new RepliesService({
    db,
    bots: deps.bots,
    urls: deps.urls,
    pictures: deps.pictures,
    log,
    live,
    summaries,
    limiter,
    historyBudget,
    relaxedCommit: !config.CHAT_SYNCHRONOUS_COMMIT,
    runner,
    llm,
    scenes: built.sceneEvents,
    onUserMessage: (userId, chatId) => {
      for (const listener of built.listeners) listener(userId, chatId);
    },
    onSceneMessage: (chatId, authorId) =>
      void sceneLanded(deps, built.events, chatId, authorId).catch((error: unknown) =>
        log.warn({ err: error, chatId }, 'could not announce a scene message to the badges'),
      ),
    onPictureLanded: built.onPictureLanded,
  });
  const lines: ImpersonateDeps = {
    db,
    llm,
    runner,
    limiter,
    historyBudget,
    maxTokens: config.LLM_MAX_TOKENS,
    temperature: config.LLM_TEMPERATURE,
  };
  return { replies, lines };
}

// The public API: what other modules may use of the chats module.
export { requireOwnedChat } from './chats.service.js';
export { EventQueue } from './generations.js';
export type { RepliesService, PictureReplier } from './replies.service.js';
export type { LiveRepliesOptions } from './live-replies.js';
export type { MessagesDeleted } from './story.service.js';
export { proactiveInstruction, type ProactiveOutcome, type ProactiveRequest } from './proactive.js';
