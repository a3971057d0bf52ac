import type { Agent } from 'node:https';
import type { FastifyBaseLogger } from 'fastify';
import webpush, { WebPushError } from 'web-push';
import {
  toLocale,
  type PushConfig,
  type PushPayload,
  type PushPreferencesBody,
  type PushSubscriptionBody,
} from '@reverie/shared';
import type { Database } from '../../db/client.js';
import { AppError } from '../../lib/errors.js';
import type { JobQueue } from '../../providers/jobs/index.js';
import type { WindowLimiter } from '../../providers/limits/index.js';
import { presentPayload } from './push.presenter.js';
import * as repo from './push.repository.js';
import type { VapidKeys } from './vapid.js';

/** The job queue of one delivery: one job per device, retried while the push service fails. */
export const PUSH_DELIVERY_QUEUE = 'push-delivery';
/** Devices kept per user (the newest). */
export const MAX_DEVICES = 20;
/** How long a push service keeps an undelivered push (the phone is off): a day. */
const PUSH_TTL_S = 24 * 3600;

/**
 * What reaches a user's devices (the companion's proactive message, a finished reply or
 * picture): the push module decides what of it a lock screen may show (push.presenter.ts).
 */
export interface PushNotice {
  chatId: string;
  character: { name: string; slug: string; picture: string | null };
  /** The message's text; its first words show unless explicit or the user hides previews. */
  text: string;
  kind: 'message' | 'picture';
  /** Explicit content (or a blurred picture): never shown on a lock screen. */
  explicit: boolean;
  /** `proactive` always notifies a subscribed device; `reply` only when the user chose it in Settings. */
  reason: 'proactive' | 'reply';
}

interface DeliveryJob {
  subscriptionId: string;
  payload: PushPayload;
}

export interface PushServiceDeps {
  db: Database;
  log: FastifyBaseLogger;
  jobs: JobQueue;
  vapid: VapidKeys;
  subject: string;
  subscribeLimiter: WindowLimiter;
  /** The user's unread character messages over all chats (the app icon's badge). */
  unreadTotal: (userId: string) => Promise<number>;
  proxy?: string;
  /** The HTTPS agent of the requests to push services (tests trust their own push service). */
  agent?: Agent;
}

/** Web Push (docs/companion.md "Push and the app"): devices, choices, and durable deliveries. */
export class PushService {
  constructor(private readonly deps: PushServiceDeps) {}

  async config(userId: string): Promise<PushConfig> {
    const choices = await repo.findChoices(this.deps.db, userId);
    if (!choices) throw new AppError('not_found', { status: 404 });
    return {
      public_key: this.deps.vapid.publicKey,
      preview: choices.preview,
      replies: choices.replies,
      devices: await repo.countSubscriptions(this.deps.db, userId),
    };
  }

  async subscribe(userId: string, body: PushSubscriptionBody): Promise<void> {
    const wait = await this.deps.subscribeLimiter.take(userId);
    if (wait > 0)
      throw new AppError('rate_limited', { status: 429, headers: { 'retry-after': String(Math.max(1, wait)) } });
    await repo.upsertSubscription(this.deps.db, {
      userId,
      endpoint: body.endpoint,
      p256dh: body.keys.p256dh,
      auth: body.keys.auth,
    });
    await repo.trimSubscriptions(this.deps.db, userId, MAX_DEVICES);
  }

  /** The device unsubscribes; another user's (or an unknown) endpoint is a 404. */
  async unsubscribe(userId: string, endpoint: string): Promise<void> {
    if (!(await repo.deleteSubscription(this.deps.db, userId, endpoint)))
      throw new AppError('not_found', { status: 404 });
  }

  async setPreferences(userId: string, body: PushPreferencesBody): Promise<PushConfig> {
    await repo.saveChoices(this.deps.db, userId, body);
    return this.config(userId);
  }

  /**
   * Queues one push per device of the user: a durable job each, retried while the push
   * service fails, run by any replica. Answers how many devices it was queued for (0: none
   * subscribed, or a reply the user did not ask to be told of).
   */
  async sendPush(userId: string, notice: PushNotice): Promise<number> {
    const choices = await repo.findChoices(this.deps.db, userId);
    if (!choices || (notice.reason === 'reply' && !choices.replies)) return 0;
    const devices = await repo.listSubscriptions(this.deps.db, userId);
    if (devices.length === 0) return 0;
    const unread = await this.deps.unreadTotal(userId);
    const payload = presentPayload(
      notice,
      { preview: choices.preview, locale: toLocale(choices.locale) ?? 'en' },
      unread,
    );
    for (const device of devices) {
      await this.deps.jobs.send<DeliveryJob>(PUSH_DELIVERY_QUEUE, { subscriptionId: device.id, payload });
    }
    return devices.length;
  }

  /**
   * One delivery (a job): sent encrypted (aes128gcm) and signed (VAPID). A subscription the
   * push service no longer knows (404, 410) is removed; a refusal of the request itself
   * (400, 403, 413) is logged and dropped; anything else (429, 5xx, the network) throws, and
   * the job is retried.
   */
  async deliver(job: DeliveryJob): Promise<void> {
    const device = await repo.findSubscription(this.deps.db, job.subscriptionId);
    if (!device) return;
    try {
      await webpush.sendNotification(
        { endpoint: device.endpoint, keys: { p256dh: device.p256dh, auth: device.auth } },
        JSON.stringify(job.payload),
        {
          vapidDetails: {
            subject: this.deps.subject,
            publicKey: this.deps.vapid.publicKey,
            privateKey: this.deps.vapid.privateKey,
          },
          TTL: PUSH_TTL_S,
          urgency: 'normal',
          // The push service keeps only the newest undelivered push of a chat.
          topic: job.payload.chat_id.replace(/-/g, '').slice(0, 32),
          timeout: 15_000,
          contentEncoding: 'aes128gcm',
          ...(this.deps.proxy ? { proxy: this.deps.proxy } : {}),
          ...(this.deps.agent ? { agent: this.deps.agent } : {}),
        },
      );
      await repo.markDelivered(this.deps.db, device.id);
    } catch (error) {
      if (!(error instanceof WebPushError)) throw error;
      const status = error.statusCode;
      if (status === 404 || status === 410) {
        await repo.deleteSubscriptionById(this.deps.db, device.id);
        this.deps.log.info({ subscription: device.id, status }, 'push subscription expired; removed');
        return;
      }
      if (status === 400 || status === 403 || status === 413) {
        this.deps.log.warn({ subscription: device.id, status }, 'push refused by the push service; dropped');
        return;
      }
      throw new Error(`push service answered ${status}`);
    }
  }
}
