import { randomUUID } from 'node:crypto';
import type { Database } from '../../db/client.js';
import type { PubSub } from '../../providers/pubsub/pubsub.provider.js';
import { failExpiredReplies, findLiveReply, leaseAlive, renewLeases } from './live-replies.repository.js';
import { findMessage, type MessageRow } from './messages.repository.js';
import { type EventQueue, Generation, type RemotePiece } from './generations.js';
import type { ServiceLog } from '../../lib/logger.js';

type Logger = Pick<ServiceLog, 'info' | 'warn'>;

export interface LiveRepliesOptions {
  db: Database;
  pubsub: PubSub;
  log: Logger;
  /** How long a live reply's owner is presumed alive without renewing (15 s). */
  leaseMs?: number;
  /** How often the owner renews its replies' leases (5 s). */
  renewEveryMs?: number;
  /** How often a replica looks for replies whose owner died (5 s, ± a fifth at random). */
  sweepEveryMs?: number;
  /** How often a watcher on another replica re-reads the reply, in case a message was lost (1 s). */
  pollEveryMs?: number;
}

/** A control message to a reply's owner: a watcher wants the pieces, or the user stopped it. */
type OwnerMessage = { t: 'sync'; id: string; from: number } | { t: 'stop'; id: string };

/** Replies this replica ended because their owner died (each reply is answered to one replica only). */
export type ExpiredListener = (ended: { id: string; chatId: string }[]) => void;

const ownerChannel = (owner: string) => `chat.owner.${owner}`;
const replyChannel = (messageId: string) => `chat.reply.${messageId}`;

/**
 * A watched reply's text, rebuilt from pieces that may arrive twice, late or out of order
 * (each says where in the text it starts).
 */
class WatchedText {
  private readonly pending = new Map<number, string>();

  constructor(private text: string) {}

  get length(): number {
    return this.text.length;
  }

  /** Places a piece starting at `at`; `onFresh` gets each part that extends the text. */
  place(at: number, piece: string, onFresh: (fresh: string) => void): void {
    this.pending.set(at, piece);
    // Apply every piece that starts at or before the end of the text we have.
    for (let progressed = true; progressed;) {
      progressed = false;
      for (const [start, part] of this.pending) {
        if (start > this.text.length) continue;
        this.pending.delete(start);
        const fresh = part.slice(this.text.length - start);
        if (fresh) {
          this.text += fresh;
          onFresh(fresh);
        }
        progressed = true;
      }
    }
  }
}

/**
 * The live replies of the cluster (docs/chat.md "Live replies across replicas"). A reply being
 * generated is a row in state `streaming` with an `owner` (the replica generating it, a random
 * id per process) and a `lease_until`; the partial unique index `messages_live_idx` allows one
 * per chat, so a second send or regenerate on any replica is a conflict (409).
 *
 * - The owner keeps its `Generation`s here, renews their leases (one statement every
 *   `renewEveryMs`) and answers control messages on its channel: `sync` (a watcher on another
 *   replica wants the text after `from` and every piece from now on, published on the reply's
 *   channel with its offset) and `stop`.
 * - Any replica follows a reply it does not own through `watch`, stops it through `stop`.
 * - Every replica sweeps now and then for replies whose lease ran out (their owner died) and
 *   ends them `failed`/`interrupted` with the text last saved; so does an attach or a send
 *   that finds one. A replica that starts never touches a reply whose owner is alive.
 */
export class LiveReplies {
  /** This process's identity as an owner; a restarted process is a new owner. */
  readonly instanceId = randomUUID();
  readonly leaseMs: number;
  private readonly byChat = new Map<string, Generation>();
  private readonly byMessage = new Map<string, Generation>();
  private renewTimer: NodeJS.Timeout | undefined;
  private sweepTimer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => Promise<void>) | null = null;
  private closed = false;
  private readonly expiredListeners: ExpiredListener[] = [];

  constructor(private readonly options: LiveRepliesOptions) {
    this.leaseMs = options.leaseMs ?? 15_000;
  }

  private get db(): Database {
    return this.options.db;
  }

  /** Listens on this owner's channel and starts the lease and sweep timers. */
  async start(): Promise<void> {
    this.unsubscribe = await this.options.pubsub.subscribe(ownerChannel(this.instanceId), (raw) =>
      this.onOwnerMessage(raw),
    );
    const renewEvery = this.options.renewEveryMs ?? 5_000;
    this.renewTimer = setInterval(() => {
      if (this.byMessage.size === 0) return;
      renewLeases(this.db, this.instanceId, this.leaseMs).catch((error: unknown) =>
        this.options.log.warn({ err: error }, 'could not renew the leases of live replies'),
      );
    }, renewEvery);
    this.renewTimer.unref();
    const sweepEvery = this.options.sweepEveryMs ?? 5_000;
    const sweep = () => {
      if (this.closed) return;
      this.sweepTimer = setTimeout(
        () => {
          void this.sweep().finally(sweep);
        },
        sweepEvery * (0.8 + Math.random() * 0.4),
      );
      this.sweepTimer.unref();
    };
    sweep();
  }

  /**
   * Tells `listener` of every reply this replica ends because its owner died (a scene's
   * "Continue" takes its next turn there, docs/groups.md). The ending `UPDATE … RETURNING`
   * answers a reply to one replica only, so each is told once in the cluster.
   */
  onExpired(listener: ExpiredListener): void {
    this.expiredListeners.push(listener);
  }

  /**
   * Ends the replies whose owner died (lease run out); answers how many. `takeover`: the
   * caller writes a new live reply in the chat right after (a send, a tapped face, a
   * regenerate), which takes the turn — the listeners are not told.
   */
  async sweep(
    scope: { chatId?: string; messageId?: string } = {},
    options: { takeover?: boolean } = {},
  ): Promise<number> {
    try {
      const ended = await failExpiredReplies(this.db, scope);
      for (const { id } of ended) this.publishEnd(id);
      if (ended.length > 0) {
        this.options.log.warn({ count: ended.length }, 'replies whose replica stopped were marked interrupted');
        if (!options.takeover) this.tellExpired(ended);
      }
      return ended.length;
    } catch (error) {
      this.options.log.warn({ err: error }, 'could not sweep interrupted replies');
      return 0;
    }
  }

  private tellExpired(ended: { id: string; chatId: string }[]): void {
    for (const listener of this.expiredListeners) {
      try {
        listener(ended);
      } catch (error) {
        this.options.log.warn({ err: error }, 'a listener of interrupted replies failed');
      }
    }
  }

  private publishEnd(messageId: string): void {
    this.publish(replyChannel(messageId), { t: 'end' } satisfies RemotePiece);
  }

  private publish(channel: string, message: unknown): void {
    this.options.pubsub
      .publish(channel, JSON.stringify(message))
      .catch((error: unknown) => this.options.log.warn({ err: error, channel }, 'could not publish'));
  }

  // ---------------------------------------------------------------------------------------
  // The owner's side
  // ---------------------------------------------------------------------------------------

  /** A new generation for the chat (its row is written with this owner and a lease). */
  create(chatId: string, userId: string): Generation {
    return new Generation(chatId, userId);
  }

  /** Makes a generation whose reply row exists findable here until it finishes. */
  register(generation: Generation): void {
    this.byChat.set(generation.chatId, generation);
    this.byMessage.set(generation.messageId, generation);
    void generation.done.then(() => {
      if (this.byChat.get(generation.chatId) === generation) this.byChat.delete(generation.chatId);
      this.byMessage.delete(generation.messageId);
    });
  }

  /** This process's live generation of the reply, if it owns it. */
  local(messageId: string): Generation | undefined {
    return this.byMessage.get(messageId);
  }

  get size(): number {
    return this.byMessage.size;
  }

  private onOwnerMessage(raw: string): void {
    let message: OwnerMessage;
    try {
      message = JSON.parse(raw) as OwnerMessage;
    } catch {
      return;
    }
    const generation = this.byMessage.get(message.id);
    if (!generation || generation.isFinished) {
      // Not (or no longer) ours: the watcher reads the saved reply.
      this.publishEnd(message.id);
      return;
    }
    if (message.t === 'stop') {
      generation.stop();
      return;
    }
    if (message.t === 'sync') {
      const channel = replyChannel(generation.messageId);
      generation.remote ??= (piece) => this.publish(channel, piece);
      const from = Math.max(0, Math.min(message.from, generation.text.length));
      this.publish(channel, { t: 'd', at: from, text: generation.text.slice(from) } satisfies RemotePiece);
    }
  }

  // ---------------------------------------------------------------------------------------
  // Any replica's side
  // ---------------------------------------------------------------------------------------

  /**
   * Follows a live reply owned by another replica into `queue`: the caller has pushed the row
   * as saved (`row.text`); this adds every later piece, then the final message (`finalEvents`
   * reads it from the database), then ends the queue. Nothing is lost when a pub/sub message
   * is: the reply is re-read every `pollEveryMs` and its final state always comes from the row.
   */
  async watch(
    row: Pick<MessageRow, 'id' | 'chatId' | 'owner' | 'text'>,
    queue: EventQueue,
    finalEvents: (row: MessageRow) => Parameters<EventQueue['push']>[0][],
  ): Promise<void> {
    const text = new WatchedText(row.text);
    let finished = false;
    const place = (at: number, piece: string) =>
      text.place(at, piece, (fresh) => queue.push({ event: 'delta', data: { message_id: row.id, text: fresh } }));
    const sync = () => {
      if (row.owner) this.publish(ownerChannel(row.owner), { t: 'sync', id: row.id, from: text.length });
    };
    const finish = async () => {
      if (finished) return;
      finished = true;
      const saved = await findMessage(this.db, row.chatId, row.id).catch(() => null);
      if (saved?.state === 'streaming') {
        // Asked before its owner had registered it (a few milliseconds after the send): ask again.
        finished = false;
        setTimeout(sync, 100).unref();
        return;
      }
      if (saved) for (const event of finalEvents(saved)) queue.push(event);
      queue.end();
    };
    const check = async () => {
      if (finished || queue.isEnded) return;
      const alive = await leaseAlive(this.db, row.id).catch(() => true);
      if (alive) return;
      // Ended (or its owner died: end it here rather than wait for the sweep).
      await this.sweep({ messageId: row.id });
      await finish();
    };
    const unsubscribe = await this.options.pubsub.subscribe(replyChannel(row.id), (raw) => {
      let piece: RemotePiece;
      try {
        piece = JSON.parse(raw) as RemotePiece;
      } catch {
        return;
      }
      if (piece.t === 'end') void finish();
      else place(piece.at, piece.text);
    });
    const poll = setInterval(() => void check(), this.options.pollEveryMs ?? 1_000);
    poll.unref();
    queue.onClose(() => {
      finished = true;
      clearInterval(poll);
      void unsubscribe();
    });
    sync();
    // It may have ended between the read and the subscription.
    await check();
  }

  /**
   * Stops the chat's live reply wherever it runs; resolves once it has ended (within about
   * a second), or at once when there is none. A reply whose owner died is ended `stopped`.
   */
  async stop(chatId: string): Promise<void> {
    const local = this.byChat.get(chatId);
    if (local && !local.isFinished) {
      local.stop();
      await local.done;
      return;
    }
    const live = await findLiveReply(this.db, chatId);
    if (!live) return;
    if (!live.alive) {
      await failExpiredReplies(this.db, { messageId: live.id }, 'stopped');
      this.publishEnd(live.id);
      return;
    }
    if (live.owner) this.publish(ownerChannel(live.owner), { t: 'stop', id: live.id });
    const deadline = Date.now() + 1_500;
    while (Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      if (!(await leaseAlive(this.db, live.id))) return;
    }
  }

  /** Aborts this process's generations (shutdown), waits until they have saved, stops listening. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.renewTimer);
    clearTimeout(this.sweepTimer);
    const running = [...this.byMessage.values()];
    for (const generation of running) generation.controller.abort(new Error('server shutting down'));
    await Promise.all(running.map((generation) => generation.done));
    await this.unsubscribe?.().catch(() => undefined);
  }
}
