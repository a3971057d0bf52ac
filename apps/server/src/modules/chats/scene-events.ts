import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Message, SceneEvent } from '@reverie/shared';
import type { PubSub } from '../../providers/pubsub/index.js';
import type { SharedCache } from '../../providers/cache/index.js';
import { HEARTBEAT_MS, pipeSubscription } from './sse.js';

/** A scene event as published: a private message carries the one person it is for. */
type Published = SceneEvent & { to?: string | null; user?: string };

const channel = (chatId: string) => `scene:${chatId}`;
const onlineKey = (chatId: string, userId: string) => `scene-online:${chatId}:${userId}`;
/** An open scene marks its person online this long; the stream renews it every heartbeat. */
export const ONLINE_TTL_MS = HEARTBEAT_MS * 3;

/**
 * A scene's live events on every replica (docs/groups.md "Scene events"): messages, typing,
 * presence and changes go through pub/sub (`scene:{chat_id}`); who is online is kept in the
 * shared cache with a TTL (Redis, or PostgreSQL's `shared_cache`), never in a process's memory.
 */
export class SceneEvents {
  constructor(
    private readonly pubsub: PubSub,
    private readonly cache: SharedCache,
  ) {}

  async publish(chatId: string, event: Published): Promise<void> {
    await this.pubsub.publish(channel(chatId), JSON.stringify(event));
  }

  /** A message saved in the scene (`to`: a private one's person). */
  async message(chatId: string, message: Message, to: string | null = null): Promise<void> {
    await this.publish(chatId, { type: 'message', message, to });
  }

  /** The scene changed: everyone reads it again. */
  async changed(chatId: string): Promise<void> {
    await this.publish(chatId, { type: 'scene' });
  }

  /** Someone is no longer in the scene: their streams end. */
  async removed(chatId: string, userId: string): Promise<void> {
    await this.publish(chatId, { type: 'removed', user: userId });
    await this.cache.set(onlineKey(chatId, userId), '', 1);
  }

  async typing(chatId: string, userId: string, name: string): Promise<void> {
    await this.publish(chatId, { type: 'typing', user_id: userId, name });
  }

  /** Marks the person online (or not) and tells the scene who is. */
  async presence(chatId: string, userId: string, online: boolean, people: string[]): Promise<string[]> {
    await this.cache.set(onlineKey(chatId, userId), online ? '1' : '', online ? ONLINE_TTL_MS : 1);
    const now = await this.online(chatId, people);
    await this.publish(chatId, { type: 'presence', online: now });
    return now;
  }

  /** Renews the person's mark (the stream's heartbeat). */
  async keepOnline(chatId: string, userId: string): Promise<void> {
    await this.cache.set(onlineKey(chatId, userId), '1', ONLINE_TTL_MS);
  }

  /** Which of `people` have the scene open now. */
  async online(chatId: string, people: string[]): Promise<string[]> {
    const marks = await Promise.all(people.map((id) => this.cache.get(onlineKey(chatId, id)).catch(() => null)));
    return people.filter((_, i) => marks[i] === '1');
  }

  subscribe(chatId: string, handler: (event: Published) => void): Promise<() => Promise<void>> {
    return this.pubsub.subscribe(channel(chatId), (raw) => {
      try {
        handler(JSON.parse(raw) as Published);
      } catch {
        // A malformed message is ignored.
      }
    });
  }
}

/** What the stream needs to know of the person watching. */
export interface SceneViewer {
  chatId: string;
  userId: string;
  /** The people of the scene (user ids), for presence. */
  people: () => Promise<string[]>;
}

/** Whether a published event is for this viewer, as it is sent to them (internal fields dropped). */
export function eventFor(event: Published, viewerId: string): SceneEvent | null {
  if (event.type === 'message') {
    if (event.to && event.to !== viewerId) return null;
    return { type: 'message', message: event.message };
  }
  if (event.type === 'removed') return event.user === viewerId ? { type: 'removed' } : { type: 'scene' };
  if (event.type === 'typing' && event.user_id === viewerId) return null;
  return event;
}

/**
 * The scene's events as server-sent events until the client goes away or is removed; the
 * viewer is online meanwhile (renewed with the heartbeat) and offline once it closes.
 */
export async function pipeSceneEvents(
  request: FastifyRequest,
  reply: FastifyReply,
  events: SceneEvents,
  viewer: SceneViewer,
): Promise<void> {
  await pipeSubscription<SceneEvent>(
    request,
    reply,
    (write, end) =>
      events.subscribe(viewer.chatId, (published) => {
        const event = eventFor(published, viewer.userId);
        if (!event) return;
        write(event);
        if (event.type === 'removed') end();
      }),
    {
      opened: async (write) => {
        const people = await viewer.people().catch(() => [viewer.userId]);
        const online = await events.presence(viewer.chatId, viewer.userId, true, people).catch(() => null);
        if (online) write({ type: 'presence', online });
      },
      heartbeat: () => void events.keepOnline(viewer.chatId, viewer.userId).catch(() => undefined),
    },
  );
  await events
    .presence(viewer.chatId, viewer.userId, false, await viewer.people().catch(() => []))
    .catch(() => undefined);
}
