import type { FastifyReply, FastifyRequest } from 'fastify';
import type { UserEvent } from '@reverie/shared';
import { pipeSubscription } from './sse.js';
import type { PubSub } from '../../providers/pubsub/index.js';

const channel = (userId: string) => `user-events:${userId}`;

/**
 * A user's events on every replica (issue 31): a chat read on one device, a character's
 * message landed. Pub/sub says "look again" to the user's open apps, wherever their stream
 * (`GET /api/events`) is held; the truth (read_through_seq, the messages) stays in the database.
 */
export class UserEvents {
  constructor(private readonly pubsub: PubSub) {}

  async publish(userId: string, event: UserEvent): Promise<void> {
    await this.pubsub.publish(channel(userId), JSON.stringify(event));
  }

  /** Calls `handler` with each event of the user until the returned function is called. */
  subscribe(userId: string, handler: (event: UserEvent) => void): Promise<() => Promise<void>> {
    return this.pubsub.subscribe(channel(userId), (message) => {
      try {
        handler(JSON.parse(message) as UserEvent);
      } catch {
        // A malformed message is ignored: the next one says the same.
      }
    });
  }
}

/**
 * Writes the user's events as server-sent events until the client goes away: subscribed
 * before the headers go out, so an event published after the answer began is not missed.
 */
export function pipeUserEvents(
  request: FastifyRequest,
  reply: FastifyReply,
  events: UserEvents,
  userId: string,
): Promise<void> {
  return pipeSubscription<UserEvent>(request, reply, (write) => events.subscribe(userId, write));
}
