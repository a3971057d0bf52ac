import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { REWARDFUL_ORIGIN } from '@reverie/shared';
import { buildCore, type AppDependencies } from './core.js';
import { authPlugin } from './plugins/auth.js';
import { compressionPlugin } from './plugins/compression.js';
import { errorHandlerPlugin } from './plugins/error-handler.js';
import { inputGuardPlugin } from './plugins/input-guard.js';
import { metricsPlugin } from './plugins/metrics.js';
import { registerJobMetrics } from './plugins/jobs-metrics.js';
import { openApiPlugin } from './plugins/openapi.js';
import { publicUrlCheckPlugin } from './plugins/public-url.js';
import { requestContextPlugin } from './plugins/request-context.js';
import { securityPlugin } from './plugins/security.js';
import { serverVersion } from './lib/version.js';
import { BatchedWindowCounter, sharedRateLimitStore } from './providers/limits/index.js';
import { analyticsModule } from './modules/analytics/index.js';
import { blogModule } from './modules/blog/index.js';
import { botsModule } from './modules/bots/index.js';
import { legalModule } from './modules/legal/index.js';
import { chatsModule } from './modules/chats/index.js';
import { picturesModule } from './modules/pictures/index.js';
import { systemModule } from './modules/system/index.js';
import { transformsModule } from './modules/transforms/index.js';
import { webModule } from './modules/web/index.js';
// issue 25: the modules below are being converted to their plugin (modules/<name>/index.ts).
import { billingRoutes } from './modules/billing/billing.routes.js';
import { cancelSubscription, getBillingProfile } from './modules/billing/billing.service.js';
import { AppError } from './lib/errors.js';
import { adminRoutes } from './modules/admin/admin.routes.js';
import { takedownRoutes } from './modules/takedown/takedown.routes.js';
import { scheduleWebhookDeliveryPruning } from './modules/billing/webhook-deliveries.pruning.js';
import { TakedownService } from './modules/takedown/takedown.service.js';
import { localAdminRoutes } from './modules/admin/local-admin.routes.js';
import { newLocalAdminKey } from './modules/admin/local-admin.js';
import type { TakedownService as TakedownServiceType } from './modules/takedown/takedown.service.js';
import { mediaRoutes } from './modules/media/media.routes.js';
import { accountsRoutes } from './modules/accounts/accounts.routes.js';
import { AccountsService } from './modules/accounts/accounts.service.js';
import { mailboxRoutes } from './modules/accounts/mailbox.routes.js';
import { audioRoutes } from './modules/audio/audio.routes.js';
import { AudioService } from './modules/audio/audio.service.js';
import { callsRoutes } from './modules/calls/calls.routes.js';
import { CallsService, type VadFactory } from './modules/calls/calls.service.js';
import { createVad } from './providers/vad/index.js';
import { providerLog } from './core.js';

export type { AppDependencies } from './core.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Voice calls (docs/calls.md); tests and the benchmark read `size`. */
    calls: CallsService;
    /** Voice messages' service (tests and the benchmark wait for its jobs with `audio.idle()`). */
    audio: AudioService;
    /** Accounts; tests wait for mail sent after the answer with `accounts.idle()`. */
    accounts: AccountsService;
    /** Takedown requests (the acknowledgement is queued before the answer). */
    takedown: TakedownServiceType;
    /**
     * The key `npm run admin:create|ban|unban` presents to `POST /api/local/admin`; server.ts
     * writes it to `DATA_DIR/local-admin.json` (0600) when it listens on PGlite.
     */
    localAdminKey: string;
  }
}

/**
 * Builds the Fastify app: the cross-cutting plugins, the shared providers (`core.ts`), then
 * every module's plugin, registered explicitly so that go-to-definition leads from here to each
 * module's `index.ts`. Does not listen (server.ts does).
 */
export async function buildApp(deps: AppDependencies): Promise<FastifyInstance> {
  const { config, database } = deps;
  const app = Fastify({
    logger: deps.logger ?? false,
    trustProxy: config.TRUST_PROXY,
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true },
    bodyLimit: 1024 * 1024,
    requestIdHeader: 'x-request-id',
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  await app.register(requestContextPlugin);
  await app.register(errorHandlerPlugin);
  await app.register(inputGuardPlugin);
  await app.register(compressionPlugin);
  const core = await buildCore(app, deps);
  // The global per-address limit is hit by every request: counted here and added to the shared
  // counter four times a second (no database write per request); the others count exactly.
  const { limits } = core;
  const globalLimits = limits.kind === 'memory' ? limits : new BatchedWindowCounter(limits);
  if (globalLimits !== limits) app.addHook('onClose', async () => globalLimits.close());
  await app.register(securityPlugin, {
    store: sharedRateLimitStore(limits, globalLimits),
    webOrigins: config.WEB_ORIGIN,
    ratePerMinute: config.RATE_LIMIT_PER_MINUTE,
    scriptOrigins: config.REWARDFUL_API_KEY ? [REWARDFUL_ORIGIN] : [],
    hsts: new URL(config.PUBLIC_URL).protocol === 'https:',
  });
  await app.register(publicUrlCheckPlugin, { publicUrl: config.PUBLIC_URL });
  await app.register(authPlugin, { tokens: core.tokens, sessions: core.sessions });
  await app.register(metricsPlugin, {
    token: config.METRICS_TOKEN,
    openWithoutToken: !config.isProduction || config.METRICS_PUBLIC,
  });
  // Queue depth per queue and state (from the database) and failed attempts on /metrics.
  registerJobMetrics(app.metrics, core.jobs);
  await app.register(openApiPlugin, { appName: core.edition.name, version: serverVersion() });
  // Workers start once every module has registered its handlers (they stop at the end of the
  // preClose hooks, below).
  app.addHook('onReady', async () => core.jobs.start());

  await app.register(systemModule, { ...core, callsAvailability: () => app.calls.availability() });
  await app.register(analyticsModule, core);
  await app.register(blogModule, core);
  await app.register(legalModule, core);
  // issue 25: what follows moves into the modules' plugins.
  const { storage, urls: mediaUrls, jobs, pubsub, tts, stt, secret } = core;
  const { sessions, payments, mail, edition } = core;
  const vad: VadFactory | null = deps.vad ?? (() => createVad(config, providerLog(app.log, 'vad')));
  await app.register(mediaRoutes, { db: database.db, storage, urls: mediaUrls });
  await app.register(botsModule, core);
  // Pictures in chat (issue 7): the chats module calls `app.pictures` (isPictureRequest, reply).
  await app.register(picturesModule, core);
  // The image style transform (issue 16, docs/transform.md): one durable job per paid transform.
  await app.register(transformsModule, {
    ...core,
    pictureCheck: app.bots,
    transformProvider: deps.transformProvider,
  });
  // Chats (docs/chat.md): conversations, sending and the replies (modules/chats/index.ts).
  await app.register(chatsModule, {
    ...core,
    bots: app.bots,
    pictures: app.pictures,
    liveReplies: deps.liveReplies,
  });
  // Voice messages (issue 7, docs/voice.md): a durable background job per message, on any replica.
  const audio = new AudioService({
    db: database.db,
    storage,
    urls: mediaUrls,
    tts,
    log: app.log,
    timeoutMs: config.TTS_TIMEOUT_S * 1000,
    concurrency: config.TTS_CONCURRENCY,
    mp3Kbps: config.TTS_MP3_KBPS,
    jobs,
    retries: config.TTS_RETRIES,
    retryDelayS: config.TTS_RETRY_DELAY_S,
  });
  app.decorate('audio', audio);
  await app.register(audioRoutes, { service: audio });
  // Voice calls (issue 14, docs/calls.md): a call is a conversation in a chat, said aloud;
  // its row in the database lets any replica resume or end it.
  const calls = new CallsService({
    db: database.db,
    secret,
    stt,
    tts,
    vad,
    replies: app.replies,
    chatForSlug: (userId, slug, locale) => app.chats.chatForSlug(userId, slug, locale),
    pubsub,
    log: app.log,
    onTimings: deps.onCallTimings,
    settings: {
      minutesPerDay: config.CALL_MINUTES_PER_DAY,
      endOfTurnMs: config.CALL_END_OF_TURN_MS,
      minSpeechMs: config.CALL_MIN_SPEECH_MS,
      resumeGraceS: config.CALL_RESUME_GRACE_S,
      tokenTtlS: config.CALL_TOKEN_TTL_S,
      outputSampleRate: config.CALL_OUTPUT_SAMPLE_RATE,
      leadMs: config.CALL_PLAYBACK_LEAD_MS,
      ttsTimeoutMs: config.TTS_TIMEOUT_S * 1000,
      ...deps.calls,
    },
  });
  app.decorate('calls', calls);
  calls.start();
  // Calls end (server_shutdown) before the replies and the database close.
  app.addHook('preClose', async () => calls.close());
  await app.register(callsRoutes, { service: calls });
  const accounts = new AccountsService({
    db: database.db,
    tokens: app.tokens,
    sessions,
    mail,
    edition,
    publicUrl: config.PUBLIC_URL,
    secret,
    log: app.log,
    resetTtlMinutes: config.PASSWORD_RESET_TTL_MIN,
    verificationTtlDays: config.VERIFICATION_TTL_DAYS,
    loginDelays: {
      freeFailures: config.LOGIN_FAILURES_BEFORE_DELAY,
      baseDelayS: config.LOGIN_DELAY_BASE_S,
      maxDelayS: config.LOGIN_DELAY_MAX_S,
      forgetAfterS: Math.max(3600, config.LOGIN_DELAY_MAX_S * 2),
    },
    dataDir: config.dataDir,
    storage,
    beforeDelete: async (userId) => {
      try {
        await cancelSubscription(database.db, payments.byId, userId);
      } catch (error) {
        app.log.error({ err: error, userId }, 'could not cancel the subscription of an account being deleted');
        throw new AppError('subscription_cancel_failed', {
          status: 502,
          detail: 'The subscription could not be cancelled. Nothing was deleted; please try again.',
        });
      }
    },
  });
  // Password reset mails go out after the answer; they finish before the database closes.
  app.addHook('preClose', async () => accounts.idle());
  app.decorate('accounts', accounts);
  await app.register(accountsRoutes, {
    service: accounts,
    ipPerMinute: config.AUTH_RATE_LIMIT_IP_PER_MINUTE,
    accountPerMinute: config.AUTH_RATE_LIMIT_ACCOUNT_PER_MINUTE,
    limits,
    billingProfile: (userId) => getBillingProfile(database.db, userId),
  });
  if (!config.isProduction) await app.register(mailboxRoutes, { db: database.db });
  await app.register(billingRoutes, {
    db: database.db,
    providers: payments,
    publicUrl: config.PUBLIC_URL,
    appName: edition.name,
  });
  // Webhook deliveries are kept WEBHOOK_DELIVERIES_RETENTION_DAYS: an hourly durable job, one
  // per hour for the cluster (webhook-deliveries.pruning.ts).
  const webhookPruning = scheduleWebhookDeliveryPruning({
    db: database.db,
    jobs,
    retentionDays: config.WEBHOOK_DELIVERIES_RETENTION_DAYS,
    log: app.log,
  });
  app.addHook('onReady', async () => {
    await webhookPruning.scheduleNext().catch((error: unknown) => {
      app.log.warn({ err: error }, 'could not schedule the pruning of webhook deliveries');
    });
  });
  const takedown = new TakedownService({
    db: database.db,
    mail,
    edition,
    publicUrl: config.PUBLIC_URL,
    log: app.log.child({ module: 'takedown' }),
  });
  app.decorate('takedown', takedown);
  await app.register(takedownRoutes, {
    service: takedown,
    limits,
    perIpPerHour: config.TAKEDOWN_PER_IP_PER_HOUR,
    perEmailPerDay: config.TAKEDOWN_PER_EMAIL_PER_DAY,
  });
  // npm run admin:create/ban/unban through this server (docs/operations.md "The first administrator"):
  // only on the embedded database, which no second process may open. On PostgreSQL the command
  // writes to the shared database itself, so the route does not exist there.
  const localAdminKey = deps.localAdminKey ?? newLocalAdminKey();
  app.decorate('localAdminKey', localAdminKey);
  if (database.driver === 'pglite')
    await app.register(localAdminRoutes, { db: database.db, sessions, key: localAdminKey });
  await app.register(adminRoutes, {
    prefix: '/api/admin',
    deps: {
      db: database.db,
      mail,
      storage,
      urls: mediaUrls,
      sessions,
      edition,
      publicUrl: config.PUBLIC_URL,
      log: app.log.child({ module: 'admin' }),
      accounts,
      bots: app.botsManage,
    },
  });
  // Last: its not-found handler serves the web app's pages.
  await app.register(webModule, { ...core, bots: app.bots, webDistDir: deps.webDistDir ?? null });

  // Last of the preClose hooks (they run in order, before every onClose one — runtime.ts closes
  // the database in one): mail queued after the answer has been sent to the queue; running jobs
  // are aborted and retried by a replica that lives (or after the restart).
  app.addHook('preClose', async () => jobs.stop());
  return app;
}
