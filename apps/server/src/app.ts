import type { FastifyInstance } from 'fastify';
import { buildCore, type AppDependencies } from './core.js';
import { serverVersion } from './lib/version.js';
import { authPlugin } from './plugins/auth.js';
import { clusterSecurityPlugin } from './plugins/cluster-security.js';
import { compressionPlugin } from './plugins/compression.js';
import { errorHandlerPlugin } from './plugins/error-handler.js';
import { inputGuardPlugin } from './plugins/input-guard.js';
import { createInstance } from './plugins/instance.js';
import { jobsPlugin } from './plugins/jobs-metrics.js';
import { metricsPlugin } from './plugins/metrics.js';
import { openApiPlugin } from './plugins/openapi.js';
import { publicUrlCheckPlugin } from './plugins/public-url.js';
import { requestContextPlugin } from './plugins/request-context.js';
import { accountsModule } from './modules/accounts/index.js';
import { adminModule } from './modules/admin/index.js';
import { analyticsModule } from './modules/analytics/index.js';
import { audioModule } from './modules/audio/index.js';
import { billingModule } from './modules/billing/index.js';
import { blogModule, consolePosts } from './modules/blog/index.js';
import { botsModule } from './modules/bots/index.js';
import { callsModule } from './modules/calls/index.js';
import { chatsModule } from './modules/chats/index.js';
import { companionModule } from './modules/companion/index.js';
import { dataExportModule } from './modules/data-export/index.js';
import { legalModule } from './modules/legal/index.js';
import { lorebooksModule } from './modules/lorebooks/index.js';
import { mediaModule } from './modules/media/index.js';
import { memoriesModule } from './modules/memories/index.js';
import { picturesModule } from './modules/pictures/index.js';
import { pushModule } from './modules/push/index.js';
import { systemModule } from './modules/system/index.js';
import { takedownModule } from './modules/takedown/index.js';
import { transformsModule } from './modules/transforms/index.js';
import { webModule } from './modules/web/index.js';

export type { AppDependencies } from './core.js';

/**
 * Builds the Fastify app: the cross-cutting plugins, the shared providers (`core.ts`), then
 * every module's plugin — one line each, in the order they need each other — registered
 * explicitly so that go-to-definition leads from here to each module's `index.ts`. A module is
 * given `core` (it picks what it needs) and the public APIs of the modules before it
 * (`app.<name>`). Does not listen (server.ts does).
 */
export async function buildApp(deps: AppDependencies): Promise<FastifyInstance> {
  const { config } = deps;
  const app = createInstance({ logger: deps.logger, trustProxy: config.TRUST_PROXY });

  // Cross-cutting plugins (plugins/), then the shared providers.
  await app.register(requestContextPlugin);
  await app.register(errorHandlerPlugin);
  await app.register(inputGuardPlugin);
  await app.register(compressionPlugin);
  const core = await buildCore(app, deps);
  await app.register(clusterSecurityPlugin, { config, limits: core.limits });
  await app.register(publicUrlCheckPlugin, { publicUrl: config.PUBLIC_URL });
  await app.register(authPlugin, { tokens: core.tokens, sessions: core.sessions });
  await app.register(metricsPlugin, {
    token: config.METRICS_TOKEN,
    openWithoutToken: !config.isProduction || config.METRICS_PUBLIC,
  });
  await app.register(jobsPlugin, { jobs: core.jobs });
  await app.register(openApiPlugin, { appName: core.edition.name, version: serverVersion() });

  // The modules (modules/<name>/index.ts), one line each.
  await app.register(systemModule, { ...core, callsAvailability: () => app.calls.availability() });
  await app.register(analyticsModule, core);
  await app.register(blogModule, core);
  await app.register(legalModule, core);
  await app.register(billingModule, core);
  await app.register(botsModule, core);
  await app.register(mediaModule, { ...core, bots: app.bots });
  // A scene's people unblur its pictures each for themselves (docs/groups.md): asked of chats, registered later.
  await app.register(picturesModule, {
    ...core,
    sceneAccess: (userId, messageId) => app.chats.sceneAccess(userId, messageId),
  });
  await app.register(transformsModule, { ...core, pictureCheck: app.bots, transformProvider: deps.transformProvider });
  await app.register(memoriesModule, { ...core, bots: app.bots });
  await app.register(lorebooksModule, { ...core, bots: app.bots });
  await app.register(chatsModule, {
    ...core,
    bots: app.bots,
    pictures: app.pictures,
    memories: app.memories,
    lorebooks: app.lorebooks,
    liveReplies: deps.liveReplies,
  });
  await app.register(pushModule, { ...core, chats: app.chats, pushAgent: deps.pushAgent });
  await app.register(audioModule, { ...core, billing: app.billing });
  await app.register(callsModule, {
    ...core,
    vad: deps.vad,
    calls: deps.calls,
    onCallTimings: deps.onCallTimings,
    replies: app.replies,
    chats: app.chats,
    bots: app.bots,
  });
  await app.register(accountsModule, { ...core, billing: app.billing });
  await app.register(takedownModule, core);
  await app.register(dataExportModule, {
    ...core,
    publish: (userId, event) => app.chats.publishUserEvent(userId, event),
  });
  await app.register(companionModule, {
    ...core,
    chats: app.chats,
    accounts: app.accounts,
    push: app.push,
    notify: deps.proactiveNotify,
  });
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
