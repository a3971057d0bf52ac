import type { Agent } from 'node:https';
import type { Core } from '../../core.js';
import { defineModule } from '../../lib/module.js';
import { WindowLimiter } from '../../providers/limits/index.js';
import type { ChatsApi, FinishedChatReply } from '../chats/index.js';
import { pushRoutes } from './push.routes.js';
import { PUSH_DELIVERY_QUEUE, PushService, type PushNotice } from './push.service.js';
import { resolveVapidKeys } from './vapid.js';

export type PushModuleDeps = Pick<Core, 'config' | 'db' | 'log' | 'jobs' | 'limits' | 'edition'> & {
  /**
   * The chats module: the user's unread character messages over all chats (the app icon's
   * badge), the replies written in full (a long one is announced when the user chose it) and
   * the pictures left unseen.
   */
  chats: Pick<ChatsApi, 'unreadTotal' | 'onReplyFinished' | 'onPictureUnseen'>;
  /** The HTTPS agent of requests to push services (tests trust their own local push service). */
  pushAgent?: Agent;
};

/** A reply that took at least this long may be notified (when the user chose it): the user has likely left. */
export const LONG_REPLY_MS = 20_000;

/** What other modules may ask of the push module. */
export interface PushApi {
  /**
   * Tells the user's devices (one durable job per device); how many it was queued for. The
   * companion's proactive messages (`reason: 'proactive'`) and finished replies (`'reply'`,
   * only when the user chose it) come through here.
   */
  sendPush(userId: string, notice: PushNotice): Promise<number>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Web Push to the user's devices (docs/companion.md "Push and the app"). */
    push: PushApi;
  }
}

/** VAPID's contact: VAPID_SUBJECT, else PUBLIC_URL when https, else a mailto: at the edition's domain. */
export function vapidSubject(config: Core['config'], edition: Core['edition']): string {
  if (config.VAPID_SUBJECT) return config.VAPID_SUBJECT;
  if (config.PUBLIC_URL.startsWith('https://')) return new URL(config.PUBLIC_URL).origin;
  return `mailto:push@${edition.domain}`;
}

/** The push module: devices' subscriptions, notification choices, deliveries as durable jobs. */
export const pushModule = defineModule<PushModuleDeps>('push', async (app, deps) => {
  const { config } = deps;
  const service = new PushService({
    db: deps.db,
    log: deps.log.child({ module: 'push' }),
    jobs: deps.jobs,
    vapid: resolveVapidKeys(
      { publicKey: config.VAPID_PUBLIC_KEY, privateKey: config.VAPID_PRIVATE_KEY },
      config.dataDir,
    ),
    subject: vapidSubject(config, deps.edition),
    subscribeLimiter: new WindowLimiter(deps.limits, 'push-subscribe', config.PUSH_SUBSCRIBE_PER_HOUR, 3600_000),
    unreadTotal: (userId) => deps.chats.unreadTotal(userId),
    proxy: config.PUSH_PROXY,
    agent: deps.pushAgent,
  });
  deps.jobs.work<Parameters<PushService['deliver']>[0]>(PUSH_DELIVERY_QUEUE, (job) => service.deliver(job), {
    concurrency: 4,
    retryLimit: 5,
    retryDelaySeconds: 10,
    retryBackoff: true,
    expireInSeconds: 60,
  });
  app.decorate('push', { sendPush: (userId, notice) => service.sendPush(userId, notice) } satisfies PushApi);
  deps.chats.onReplyFinished((reply) => announceLongReply(service, reply, deps.log));
  // A picture the user asked for, still unread a little after it landed (they were not looking
  // at that chat): "Mia sent you a picture", when the user chose to be told (`replies`). Runs
  // inside the chats module's durable check: a failure to queue the push retries that job.
  deps.chats.onPictureUnseen((picture) =>
    service.sendPush(picture.userId, {
      chatId: picture.chatId,
      character: picture.character,
      text: '',
      kind: 'picture',
      explicit: picture.blurred,
      reason: 'reply',
    }),
  );
  await app.register(pushRoutes, { service, perIpPerHour: config.PUSH_SUBSCRIBE_PER_HOUR * 3 });
});

/** A reply that took long is announced on the user's devices (only where the user chose it). */
function announceLongReply(service: PushService, reply: FinishedChatReply, log: Core['log']): void {
  if (reply.tookMs < LONG_REPLY_MS) return;
  void reply
    .character()
    .then((character) =>
      character
        ? service.sendPush(reply.userId, {
            chatId: reply.chatId,
            character,
            text: reply.text,
            kind: 'message',
            explicit: false,
            reason: 'reply',
          })
        : undefined,
    )
    .catch((error: unknown) => log.warn({ err: error }, 'could not queue a push'));
}

export type { PushNotice } from './push.service.js';
export { resolveVapidKeys } from './vapid.js';
