import path from 'node:path';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { BOTS_FIRST_PAGE_SIZE, getEdition, REWARDFUL_ORIGIN } from '@reverie/shared';
import type { Config } from './config.js';
import type { DatabaseHandle } from './db/client.js';
import { authPlugin } from './plugins/auth.js';
import { compressionPlugin } from './plugins/compression.js';
import { errorHandlerPlugin } from './plugins/error-handler.js';
import { inputGuardPlugin } from './plugins/input-guard.js';
import { resolveSecret } from './lib/secrets.js';
import { TokenSigner } from './lib/tokens.js';
import { metricsPlugin } from './plugins/metrics.js';
import { registerJobMetrics } from './plugins/jobs-metrics.js';
import { openApiPlugin } from './plugins/openapi.js';
import { publicUrlCheckPlugin } from './plugins/public-url.js';
import { requestContextPlugin } from './plugins/request-context.js';
import { securityPlugin } from './plugins/security.js';
import { analyticsRoutes } from './modules/analytics/analytics.routes.js';
import { billingRoutes } from './modules/billing/billing.routes.js';
import { cancelSubscription, getBillingProfile } from './modules/billing/billing.service.js';
import { AppError } from './lib/errors.js';
import { blogRoutes } from './modules/blog/blog.routes.js';
import { createPaymentProviders } from './providers/payments/index.js';
import { legalRoutes } from './modules/legal/legal.routes.js';
import { adminRoutes } from './modules/admin/admin.routes.js';
import { takedownRoutes } from './modules/takedown/takedown.routes.js';
import { scheduleWebhookDeliveryPruning } from './modules/billing/webhook-deliveries.pruning.js';
import { TakedownService } from './modules/takedown/takedown.service.js';
import { localAdminRoutes } from './modules/admin/local-admin.routes.js';
import { newLocalAdminKey } from './modules/admin/local-admin.js';
import type { TakedownService as TakedownServiceType } from './modules/takedown/takedown.service.js';
import { systemRoutes } from './modules/system/system.routes.js';
import { webRoutes } from './modules/web/web.routes.js';
import { botsRoutes } from './modules/bots/bots.routes.js';
import { getBotDetail, listAvailableBots } from './modules/bots/bots.service.js';
import { mediaRoutes } from './modules/media/media.routes.js';
import { MediaUrls } from './lib/media-urls.js';
import { createMediaStorage, type MediaStorage } from './providers/storage/index.js';
import { createModerationProvider, type ModerationProvider } from './providers/moderation/index.js';
import { createImageModeration, type ImageModeration } from './providers/image-moderation/index.js';
import { accountsRoutes } from './modules/accounts/accounts.routes.js';
import { AccountsService } from './modules/accounts/accounts.service.js';
import { mailboxRoutes } from './modules/accounts/mailbox.routes.js';
import { createMailProvider } from './providers/mail/index.js';
import { serverVersion } from './lib/version.js';
import { pictureRoutes } from './modules/pictures/pictures.routes.js';
import { PictureService } from './modules/pictures/pictures.service.js';
import { createImageProvider, type ImageProvider } from './providers/images/index.js';
import { createLlmProvider, type LlmProvider } from './providers/llm/index.js';
import { chatsRoutes } from './modules/chats/chats.routes.js';
import { ChatsService } from './modules/chats/chats.service.js';
import { LiveReplies, type LiveRepliesOptions } from './modules/chats/live-replies.js';
import { RepliesService } from './modules/chats/replies.service.js';
import { GenerationRunner, type SummaryRequest } from './modules/chats/runner.js';
import { historyReadBudget } from './modules/chats/prompt.js';
import { MemorySummaries } from './modules/chats/summaries.js';
import { audioRoutes } from './modules/audio/audio.routes.js';
import { transformRoutes } from './modules/transforms/transforms.routes.js';
import { TransformsService } from './modules/transforms/transforms.service.js';
import { createTransformProvider, type TransformProvider } from './modules/transforms/transform-provider.js';
import { AudioService } from './modules/audio/audio.service.js';
import { createTtsProvider, type TtsProvider } from './providers/tts/index.js';
import { createPubSub, type PubSub } from './providers/pubsub/index.js';
import { createJobQueue, type JobQueue } from './providers/jobs/index.js';
import {
  BatchedWindowCounter,
  createWindowCounter,
  sharedRateLimitStore,
  WindowLimiter,
  type WindowCounter,
} from './providers/limits/index.js';
import { Sessions } from './modules/accounts/sessions.js';
import { callsRoutes } from './modules/calls/calls.routes.js';
import { CallsService, type CallSettings, type VadFactory } from './modules/calls/calls.service.js';
import type { TurnTimings } from './modules/calls/call-session.js';
import { createSttProvider, type SttProvider } from './providers/stt/index.js';
import { createVad } from './providers/vad/index.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The language model (docs/llm.md); server.ts warms it up after listening. */
    llm: LlmProvider;
    /** The picture judge (docs/moderation.md); server.ts warms it up after listening. */
    imageModeration: ImageModeration;
    /** Speech recognition for voice calls (docs/calls.md), chosen by STT_PROVIDER. */
    stt: SttProvider;
    /** Voice calls (docs/calls.md); tests and the benchmark read `size`. */
    calls: CallsService;
    /** Voice messages' service (tests and the benchmark wait for its jobs with `audio.idle()`). */
    audio: AudioService;
    /** The image style transform (docs/transform.md); tests wait for its jobs with `transforms.idle()`. */
    transforms: TransformsService;
    /** Accounts; tests wait for mail sent after the answer with `accounts.idle()`. */
    accounts: AccountsService;
    /** Messages between replicas (providers/pubsub): Redis, PostgreSQL LISTEN/NOTIFY or in process. */
    pubsub: PubSub;
    /** Live sessions, cached per process and invalidated on every replica (accounts `sessions.ts`). */
    sessions: Sessions;
    /**
     * Durable background jobs shared by the replicas (providers/jobs, pg-boss): modules register
     * handlers with `work` while the app is built; the workers start when the app is ready.
     */
    jobs: JobQueue;
    /** Takedown requests (the acknowledgement is queued before the answer). */
    takedown: TakedownServiceType;
    /**
     * The key `npm run admin:create|ban|unban` presents to `POST /api/local/admin`; server.ts
     * writes it to `DATA_DIR/local-admin.json` (0600) when it listens on PGlite.
     */
    localAdminKey: string;
  }
}

export interface AppDependencies {
  config: Config;
  database: DatabaseHandle;
  /** Pino options or an instance; tests pass `false` for silence. */
  logger?: FastifyServerOptions['logger'];
  /** The built web app folder; null for API only. */
  webDistDir?: string | null;
  /** Media storage; by default the one the settings select. */
  storage?: MediaStorage;
  /** Payment providers; by default the ones the settings select (tests pass fakes). */
  payments?: ReturnType<typeof createPaymentProviders>;
  /** Moderation provider; by default the one the settings select (tests pass fakes). */
  moderation?: ModerationProvider;
  /** The picture judge; by default the one IMAGE_MODERATION selects (tests pass fakes). */
  imageModeration?: ImageModeration;
  /** Image provider for chat pictures; by default the one the settings select (null: the gallery). */
  images?: ImageProvider | null;
  /** The style transform's engine; by default the one TRANSFORM_PROVIDER selects (tests pass failing ones). */
  transformProvider?: TransformProvider;
  /** The language model; by default the one the settings select (tests pass fakes or the fake OpenAI server). */
  llm?: LlmProvider;
  /** Text-to-speech provider for voice messages; by default the one the settings select (tests pass fakes). */
  tts?: TtsProvider;
  /** Speech recognition for calls; by default the one the settings select (STT_PROVIDER). */
  stt?: SttProvider;
  /**
   * The voice activity detector of each call; by default Silero, or WebRTC's VAD when Silero
   * cannot start (providers/vad). Tests may pass a detector of their own; null turns calls off.
   */
  vad?: VadFactory | null;
  /** Timings of calls across replicas (lease, renewal, sweep, heartbeat); tests shorten them. */
  calls?: Pick<CallSettings, 'leaseMs' | 'renewEveryMs' | 'sweepEveryMs' | 'pingEveryMs' | 'timeEveryMs'>;
  /** Stage times of each call turn (the benchmark). */
  onCallTimings?: (timings: TurnTimings) => void;
  /** Pub/sub between replicas; by default the one the settings select. One passed in is not closed with the app. */
  pubsub?: PubSub;
  /** Timings of live replies across replicas (lease, renewal, sweep); tests shorten them. */
  liveReplies?: Pick<LiveRepliesOptions, 'leaseMs' | 'renewEveryMs' | 'sweepEveryMs' | 'pollEveryMs'>;
  /**
   * The job queue; by default pg-boss on the app's database. The app registers its workers on
   * it and stops it on close, whoever made it (tests give apps sharing a database their own).
   */
  jobs?: JobQueue;
  /** The local operator key (`POST /api/local/admin`); by default a new random one. */
  localAdminKey?: string;
  /** The cluster's shared limit counters; by default the ones the settings select. One passed in is not closed with the app. */
  limits?: WindowCounter;
}

/**
 * Builds the Fastify app: plugins first, then every module, registered explicitly so that
 * go-to-definition leads from here to each route. Does not listen (server.ts does).
 */
export async function buildApp(deps: AppDependencies): Promise<FastifyInstance> {
  const { config, database } = deps;
  const edition = getEdition(config.APP_NAME);
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
  // Every limit counts once for the cluster (providers/limits): Redis, the database or in process.
  const limits =
    deps.limits ??
    createWindowCounter(config, database, (error) => app.log.warn({ err: error }, 'shared limits error'));
  if (!deps.limits) app.addHook('onClose', async () => limits.close());
  // The global per-address limit is hit by every request: counted here and added to the shared
  // counter four times a second (no database write per request); the others count exactly.
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
  const secret = resolveSecret(config.JWT_SECRET, config.dataDir);
  const jobs =
    deps.jobs ??
    createJobQueue(database, {
      maintenanceIntervalSeconds: config.JOBS_MAINTENANCE_S,
      onError: (error) => app.log.warn({ err: error }, 'job queue error'),
    });
  app.decorate('jobs', jobs);
  // Workers start once every module has registered its handlers (they stop at the end of
  // buildApp's preClose hooks).
  app.addHook('onReady', async () => jobs.start());
  const pubsub =
    deps.pubsub ?? createPubSub(config, database, (error) => app.log.warn({ err: error }, 'pub/sub error'));
  app.decorate('pubsub', pubsub);
  if (!deps.pubsub) app.addHook('onClose', async () => pubsub.close());
  // Every access token names its session; each request checks it (cached, invalidated on every replica).
  const sessions = new Sessions({ db: database.db, pubsub, log: app.log });
  await sessions.listen();
  app.decorate('sessions', sessions);
  app.addHook('onClose', async () => sessions.close());
  await app.register(authPlugin, { tokens: new TokenSigner(secret), sessions });
  await app.register(metricsPlugin, {
    token: config.METRICS_TOKEN,
    openWithoutToken: !config.isProduction || config.METRICS_PUBLIC,
  });
  // Queue depth per queue and state (from the database) and failed attempts on /metrics.
  registerJobMetrics(app.metrics, jobs);
  await app.register(openApiPlugin, { appName: edition.name, version: serverVersion() });

  // Speech recognition for calls (docs/calls.md); its state shows in GET /api/config.
  const stt = deps.stt ?? createSttProvider(config, llmLog(app.log, 'stt'));
  app.decorate('stt', stt);
  app.addHook('onClose', async () => stt.close?.());
  // Voice activity detection, a new detector per call: Silero, or WebRTC's VAD when Silero
  // cannot start (providers/vad/index.ts).
  const vadLog = llmLog(app.log, 'vad');
  const vad: VadFactory | null = deps.vad ?? (() => createVad(config, vadLog));
  let callsAvailability = (): { available: boolean; reason: 'stt_unavailable' | null } => ({
    available: false,
    reason: 'stt_unavailable',
  });
  const moderation = deps.moderation ?? createModerationProvider(config);
  await app.register(systemRoutes, {
    config,
    database,
    version: serverVersion(),
    calls: () => callsAvailability(),
    autoApproveCharacters: config.MODERATION_AUTO_APPROVE && moderation.canAutoApprove,
  });
  await app.register(analyticsRoutes, { db: database.db });
  await app.register(blogRoutes, { db: database.db });
  await app.register(legalRoutes, { edition });
  const storage = deps.storage ?? createMediaStorage(config);
  const mediaUrls = new MediaUrls(secret);
  await app.register(mediaRoutes, { db: database.db, storage, urls: mediaUrls });
  const imageModeration = deps.imageModeration ?? createImageModeration(config, moderation, app.log);
  if (imageModeration.name === 'none') {
    app.log.warn(
      '!!! IMAGE_MODERATION=none: uploaded pictures are NOT judged locally (no face-age estimate, no nudity' +
        ` classifier)${moderation.name === 'rules' ? ' and no moderation provider judges them either' : ''}; docs/moderation.md !!!`,
    );
  }
  app.decorate('imageModeration', imageModeration);
  app.addHook('onClose', async () => imageModeration.close());
  const botsDeps = {
    db: database.db,
    storage,
    moderation,
    imageModeration,
    urls: mediaUrls,
    autoApprove: config.MODERATION_AUTO_APPROVE,
    log: app.log,
  };
  await app.register(botsRoutes, { deps: botsDeps });
  // Pictures in chat (issue 7): the chats module calls `pictures` (isPictureRequest, reply).
  const pictures = new PictureService({
    db: database.db,
    storage,
    urls: mediaUrls,
    images: deps.images === undefined ? createImageProvider(config) : deps.images,
    log: app.log,
    imageTimeoutMs: config.IMAGE_TIMEOUT_S * 1000,
  });
  await app.register(pictureRoutes, { service: pictures });
  // The image style transform (issue 16, docs/transform.md): one durable job per paid transform.
  const transforms = new TransformsService({
    db: database.db,
    storage,
    urls: mediaUrls,
    imageModeration,
    provider:
      deps.transformProvider ??
      createTransformProvider({ ...config, COMFYUI_URL: config.COMFYUI_URL ?? config.IMAGE_BASE_URL }),
    jobs,
    uploadLimiter: new WindowLimiter(limits, 'transform-upload', config.TRANSFORM_UPLOADS_PER_HOUR, 3_600_000),
    previewLimiter: new WindowLimiter(limits, 'transform-preview', config.TRANSFORM_UPLOADS_PER_HOUR, 3_600_000),
    log: app.log,
    timeoutS: config.TRANSFORM_TIMEOUT_S,
    concurrency: config.TRANSFORM_CONCURRENCY,
    retries: config.TRANSFORM_RETRIES,
    retryDelayS: config.TRANSFORM_RETRY_DELAY_S,
  });
  app.decorate('transforms', transforms);
  // Abandoned uploads (unjudged or unpaid) are swept by a periodic durable job, once for the cluster.
  app.addHook('onReady', async () => {
    await transforms.start().catch((error: unknown) => {
      app.log.warn({ err: error }, 'could not schedule the sweep of abandoned transform uploads');
    });
  });
  await app.register(transformRoutes, { service: transforms });
  // The language model (docs/llm.md), for the chats module. The default one is lazy: nothing
  // loads or downloads until `warmUp()` (server.ts, after listening) or a first reply.
  const llm =
    deps.llm ?? createLlmProvider(config, { modelsDir: path.join(config.dataDir, 'models'), log: llmLog(app.log) });
  app.decorate('llm', llm);
  app.addHook('onClose', async () => llm.close?.());
  // Chats (docs/chat.md): conversations; replies generated by the runner, owned by one replica
  // at a time through the database (live-replies.ts) and followed from any replica.
  const chats = new ChatsService({ db: database.db, llm, urls: mediaUrls, storage, log: app.log });
  const live = new LiveReplies({ db: database.db, pubsub, log: app.log, ...deps.liveReplies });
  await live.start();
  // Memory summaries are durable jobs: one per chat at a time, retried, finished by any replica.
  const summaries = new MemorySummaries({
    db: database.db,
    llm,
    log: app.log,
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
  const replies = new RepliesService({
    db: database.db,
    urls: mediaUrls,
    pictures,
    log: app.log,
    live,
    summaries,
    limiter: new WindowLimiter(limits, 'chat', config.CHAT_MESSAGES_PER_MINUTE, 60_000),
    historyBudget: historyReadBudget(
      llm.models().map((model) => model.contextSize),
      config.LLM_MAX_TOKENS,
    ),
    relaxedCommit: !config.CHAT_SYNCHRONOUS_COMMIT,
    runner: new GenerationRunner({
      db: database.db,
      relaxedCommit: !config.CHAT_SYNCHRONOUS_COMMIT,
      llm,
      log: app.log,
      maxTokens: config.LLM_MAX_TOKENS,
      temperature: config.LLM_TEMPERATURE,
      leaseMs: live.leaseMs,
      metrics: app.metrics,
      onTruncated: (request) => summaries.request(request),
    }),
  });
  app.decorate('replies', replies);
  await app.register(chatsRoutes, { service: chats, replies });
  // Voice messages (issue 7, docs/voice.md): a durable background job per message, on any replica.
  const tts = deps.tts ?? createTtsProvider(config, llmLog(app.log, 'tts'));
  app.addHook('onClose', async () => tts.close?.());
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
    replies,
    chatForSlug: async (userId, slug, locale) => (await chats.getOrCreate(userId, { slug }, locale)).id,
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
  callsAvailability = () => calls.availability();
  app.decorate('calls', calls);
  calls.start();
  // Calls end (server_shutdown) before the replies and the database close.
  app.addHook('preClose', async () => calls.close());
  await app.register(callsRoutes, { service: calls });
  const payments = deps.payments ?? createPaymentProviders(config);
  for (const warning of payments.warnings) app.log.warn({ payments: true }, warning);
  const mail = createMailProvider(config, database.db, edition, jobs, { log: app.log });
  app.addHook('onClose', async () => mail.close?.());
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
      bots: botsDeps,
    },
  });
  await app.register(webRoutes, {
    db: database.db,
    edition,
    publicUrl: config.PUBLIC_URL,
    distDir: deps.webDistDir ?? null,
    // The page of `/` carries a guest's first catalogue page (issue 13: the cards without
    // waiting for the API on a slow phone).
    firstCataloguePage: () => listAvailableBots(botsDeps, null, { size: BOTS_FIRST_PAGE_SIZE, tags: [] }),
    characterPicture: async (slug) => (await getBotDetail(botsDeps, slug, null)).avatar_url,
  });

  // Last of the preClose hooks (they run in order, before every onClose one — runtime.ts closes
  // the database in one): mail queued after the answer has been sent to the queue; running jobs
  // are aborted and retried by a replica that lives (or after the restart).
  app.addHook('preClose', async () => jobs.stop());

  return app;
}

/** The language model's log lines, under the app's logger. */
function llmLog(log: FastifyBaseLogger, module = 'llm') {
  const child = log.child({ module });
  return {
    info: (msg: string) => child.info(msg),
    warn: (msg: string) => child.warn(msg),
    error: (msg: string) => child.error(msg),
  };
}
