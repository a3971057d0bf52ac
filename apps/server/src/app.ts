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
import { blogModule, consolePosts } from './modules/blog/index.js';
import { botsModule } from './modules/bots/index.js';
import { legalModule } from './modules/legal/index.js';
import { chatsModule } from './modules/chats/index.js';
import { picturesModule } from './modules/pictures/index.js';
import { systemModule } from './modules/system/index.js';
import { transformsModule } from './modules/transforms/index.js';
import { webModule } from './modules/web/index.js';
import { accountsModule } from './modules/accounts/index.js';
import { audioModule } from './modules/audio/index.js';
import { billingModule } from './modules/billing/index.js';
import { mediaModule } from './modules/media/index.js';
import { takedownModule } from './modules/takedown/index.js';
import { adminModule } from './modules/admin/index.js';
import { callsModule } from './modules/calls/index.js';
import { requireOwnedChat } from './modules/chats/index.js';

export type { AppDependencies } from './core.js';

/**
 * The routes that spend money or send e-mail: when the shared limits are slow or away
 * (LIMITS_TIMEOUT_MS), their limits answer 503 rather than let requests through uncounted by
 * the cluster. Every other limit (reads, the global per-address one) counts in process and goes on.
 */
const FAIL_CLOSED_ROUTES =
  /^\/(?:api\/(?:billing|unblur|transform|register|password_reset|resend_activation|activate|support|takedown|audio|subscription|payments|profile\/claim_desires)|password\/)/;

/**
 * Builds the Fastify app: the cross-cutting plugins, the shared providers (`core.ts`), then
 * every module's plugin, registered explicitly so that go-to-definition leads from here to each
 * module's `index.ts`. Does not listen (server.ts does).
 */
export async function buildApp(deps: AppDependencies): Promise<FastifyInstance> {
  const { config } = deps;
  const app = Fastify({
    logger: deps.logger ?? false,
    trustProxy: config.TRUST_PROXY,
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true },
    bodyLimit: 1024 * 1024,
    requestIdHeader: 'x-request-id',
    // Each request's logger (`request.log`): Fastify always passes options (the route's level),
    // which sends pino down its slow path (formatters rebuilt, options checked) for every
    // request; at the logger's own level the child is the same without them.
    childLoggerFactory: (logger, bindings, options) =>
      logger.child(
        bindings,
        Object.keys(options).every((key) => key === 'level') && (options.level ?? logger.level) === logger.level
          ? undefined
          : options,
      ),
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
    store: sharedRateLimitStore(limits, globalLimits, (url) => FAIL_CLOSED_ROUTES.test(url)),
    globalCounter: globalLimits,
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
  await app.register(billingModule, core);
  await app.register(botsModule, core);
  await app.register(mediaModule, { ...core, bots: app.bots });
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
  await app.register(audioModule, { ...core, billing: app.billing });
  // Voice calls (issue 14, docs/calls.md): a call is a conversation in a chat, said aloud.
  await app.register(callsModule, {
    ...core,
    vad: deps.vad,
    calls: deps.calls,
    onCallTimings: deps.onCallTimings,
    replies: app.replies,
    chats: {
      ownedChat: (userId, chatId) => requireOwnedChat(core.db, userId, chatId),
      chatForSlug: (userId, slug, locale) => app.chats.chatForSlug(userId, slug, locale),
    },
    characterVoice: async (botId) => (await app.bots.findBotById(botId))?.voice ?? null,
  });
  await app.register(accountsModule, { ...core, billing: app.billing });
  await app.register(takedownModule, core);
  await app.register(adminModule, {
    ...core,
    localAdminKey: deps.localAdminKey,
    bots: app.botsManage,
    accounts: app.accountsConsole,
    billing: app.billingConsole,
    blog: consolePosts,
    transforms: app.transformsConsole,
  });
  // Last: its not-found handler serves the web app's pages.
  await app.register(webModule, { ...core, bots: app.bots, webDistDir: deps.webDistDir ?? null });

  // Last of the preClose hooks (they run in order, before every onClose one — runtime.ts closes
  // the database in one): mail queued after the answer has been sent to the queue; running jobs
  // are aborted and retried by a replica that lives (or after the restart).
  app.addHook('preClose', async () => core.jobs.stop());
  return app;
}
