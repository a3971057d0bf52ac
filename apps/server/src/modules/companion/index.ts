import type { Core } from '../../core.js';
import { defineModule } from '../../lib/module.js';
import { schedulePeriodicJob } from '../../providers/jobs/periodic.js';
import type { AccountsService } from '../accounts/index.js';
import type { ChatsApi } from '../chats/index.js';
import type { PushApi } from '../push/index.js';
import { companionRoutes } from './companion.routes.js';
import { CompanionService, type Notify, type ProactiveNotice } from './companion.service.js';
import { sendDigests } from './digest.js';

export type CompanionModuleDeps = Pick<Core, 'config' | 'db' | 'log' | 'jobs' | 'mail' | 'edition'> & {
  /** The chats module: she writes in a chat; a user's message lifts the silence rule. */
  chats: Pick<ChatsApi, 'writeFirst' | 'onUserMessage'>;
  /** The accounts module: its signed unsubscribe token (the digest's one-click unsubscribe). */
  accounts: Pick<AccountsService, 'unsubscribeToken'>;
  /** The push module: her message reaches the user's devices (docs/companion.md "Push and the app"). */
  push: PushApi;
  /**
   * Told when she has written first (the notification seam, docs/companion.md) instead of the
   * push module (tests watch the notices). The e-mail digest's bookkeeping is done whatever this does.
   */
  notify?: Notify;
};

declare module 'fastify' {
  interface FastifyInstance {
    /** The companion between conversations; tests run its due slots with `companion.runDue`. */
    companion: CompanionService;
  }
}

/**
 * The companion module (docs/companion.md): proactive messages — settings, slots claimed by a
 * recurring job on any replica, the care rules — and the e-mail digest.
 */
export const companionModule = defineModule<CompanionModuleDeps>('companion', async (app, deps) => {
  const { config, jobs } = deps;
  const log = deps.log.child({ module: 'companion' });
  const companion = new CompanionService({
    db: deps.db,
    log,
    chats: deps.chats,
    notify: deps.notify ?? pushNotify(deps.push),
    publicUrl: config.PUBLIC_URL,
    options: {
      batchSize: config.COMPANION_BATCH,
      concurrency: config.COMPANION_CONCURRENCY,
      leaseSeconds: config.COMPANION_LEASE_S,
      retryDelaySeconds: config.COMPANION_RETRY_S,
      catchUpMs: config.COMPANION_CATCH_UP_MIN * 60_000,
    },
  });
  deps.chats.onUserMessage((userId, chatId) => companion.userWrote(userId, chatId));
  app.decorate('companion', companion);

  // The recurring claim: one run per period for the cluster; a run writes every due slot
  // (batches claimed with FOR UPDATE SKIP LOCKED, so runs that overlap never share a slot),
  // then sends the e-mail digests due (each claimed in the database: never twice). One queue.
  const tick = schedulePeriodicJob(jobs, 'companion-due', {
    everyS: config.COMPANION_TICK_S,
    expireInSeconds: Math.max(config.COMPANION_TICK_S * 10, 600),
    run: async () => {
      await companion.runDue(new AbortController().signal);
      await sendDigests({
        db: deps.db,
        mail: deps.mail,
        edition: deps.edition,
        publicUrl: config.PUBLIC_URL,
        log,
        unsubscribeToken: (userId) => deps.accounts.unsubscribeToken(userId),
      });
    },
  });
  // The first period is queued once the queue has started (the app's onReady hook, registered
  // before this one), in the background: a slow database never holds the app's start.
  let scheduling: Promise<unknown> = Promise.resolve();
  app.addHook('onReady', async () => {
    scheduling = tick.scheduleNext().catch((error: unknown) => {
      log.warn({ err: error }, 'could not schedule the companion job');
    });
  });
  app.addHook('preClose', async () => void (await scheduling));
  app.addHook('preClose', async () => companion.idle());
  await app.register(companionRoutes, { service: companion, db: deps.db });
});

/** Her message as a Web Push notice on the user's devices. */
function pushNotify(push: PushApi): Notify {
  return async (notice) => {
    await push.sendPush(notice.userId, {
      chatId: notice.chatId,
      character: { name: notice.characterName, slug: notice.characterSlug, picture: notice.characterPicture },
      text: notice.firstWords,
      kind: 'message',
      explicit: notice.explicit,
      reason: 'proactive',
    });
  };
}

export type { CompanionService, ProactiveNotice, Notify };
export { sendDigests } from './digest.js';
