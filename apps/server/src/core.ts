import type { Agent as HttpsAgent } from 'node:https';
import path from 'node:path';
import type { FastifyBaseLogger, FastifyInstance, FastifyServerOptions } from 'fastify';
import { getEdition, type Edition } from '@reverie/shared';
import type { Config } from './config.js';
import type { Database, DatabaseHandle } from './db/client.js';
import { resolveSecret } from './lib/secrets.js';
import { TokenSigner } from './lib/tokens.js';
import { PictureWork } from './lib/picture-work.js';
import { MediaUrls } from './lib/media-urls.js';
import { createMediaStorage, type MediaStorage } from './providers/storage/index.js';
import { createModerationProvider, type ModerationProvider } from './providers/moderation/index.js';
import { createImageModeration, type ImageModeration } from './providers/image-moderation/index.js';
import { createMailProvider, type MailProvider } from './providers/mail/index.js';
import { createImageProvider, type ImageProvider } from './providers/images/index.js';
import { createLlmProvider, type LlmProvider } from './providers/llm/index.js';
import { createTtsProvider, type TtsProvider } from './providers/tts/index.js';
import { createSttProvider, type SttProvider } from './providers/stt/index.js';
import { createPubSub, type PubSub } from './providers/pubsub/index.js';
import { createJobQueue, type JobQueue } from './providers/jobs/index.js';
import { createPaymentProviders, type PaymentProviders } from './providers/payments/index.js';
import { createWindowCounter, type WindowCounter } from './providers/limits/index.js';
import { createSharedCache, type SharedCache } from './providers/cache/index.js';
import { Sessions } from './modules/accounts/index.js';
import type { TransformProvider } from './modules/transforms/index.js';
import type { CallSettings, TurnTimings, VadFactory } from './modules/calls/index.js';
import type { LiveRepliesOptions } from './modules/chats/index.js';
import type { Notify } from './modules/companion/index.js';

/** What `buildApp` is given: the settings, the database, and what tests or the benchmark replace. */
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
  payments?: PaymentProviders;
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
  /**
   * Told when a character has written first (the companion's notification seam,
   * docs/companion.md): the push delivery; none by default (the e-mail digest counts anyway).
   */
  proactiveNotify?: Notify;
  /** The local operator key (`POST /api/local/admin`); by default a new random one. */
  localAdminKey?: string;
  /** The HTTPS agent of Web Push requests (tests trust their local push service with it). */
  pushAgent?: HttpsAgent;
  /** The cluster's shared limit counters; by default the ones the settings select. One passed in is not closed with the app. */
  limits?: WindowCounter;
}

/**
 * The providers and settings shared by every module, built once per app. A module is given
 * the part it needs (`Pick<Core, …>` in its `index.ts`), never a global.
 */
export interface Core {
  config: Config;
  database: DatabaseHandle;
  db: Database;
  log: FastifyBaseLogger;
  edition: Edition;
  /** The signing secret (JWT_SECRET, else one kept in DATA_DIR). */
  secret: string;
  tokens: TokenSigner;
  urls: MediaUrls;
  storage: MediaStorage;
  /** Limits counted once for the cluster (providers/limits). */
  limits: WindowCounter;
  /** Answers shared by the replicas (providers/cache): Redis, the database or in process. */
  cache: SharedCache;
  /** This process's picture work (uploads decoded and encoded): bounded, 503 when full (lib/picture-work.ts). */
  pictureWork: PictureWork;
  jobs: JobQueue;
  pubsub: PubSub;
  mail: MailProvider;
  payments: PaymentProviders;
  moderation: ModerationProvider;
  imageModeration: ImageModeration;
  images: ImageProvider | null;
  llm: LlmProvider;
  tts: TtsProvider;
  stt: SttProvider;
  /** Live sessions, cached per process and invalidated on every replica (modules/accounts). */
  sessions: Sessions;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The language model (docs/llm.md); server.ts warms it up after listening. */
    llm: LlmProvider;
    /** The picture judge (docs/moderation.md); server.ts warms it up after listening. */
    imageModeration: ImageModeration;
    /** Speech recognition for voice calls (docs/calls.md), chosen by STT_PROVIDER. */
    stt: SttProvider;
    /** Messages between replicas (providers/pubsub): Redis, PostgreSQL LISTEN/NOTIFY or in process. */
    pubsub: PubSub;
    /** Live sessions, cached per process and invalidated on every replica (accounts `sessions.ts`). */
    sessions: Sessions;
    /**
     * Durable background jobs shared by the replicas (providers/jobs, pg-boss): modules register
     * handlers with `work` while the app is built; the workers start when the app is ready.
     */
    jobs: JobQueue;
  }
}

/**
 * Builds the shared providers from the settings (or takes the ones `deps` passes), decorates
 * the app with those tests and server.ts read, and closes what it made when the app closes.
 */
export async function buildCore(app: FastifyInstance, deps: AppDependencies): Promise<Core> {
  const { config, database } = deps;
  const log = app.log;
  const closeWithApp = (close: () => unknown) => app.addHook('onClose', async () => void (await close()));
  const edition = getEdition(config.APP_NAME);
  // Every limit counts once for the cluster (providers/limits): Redis, the database or in process.
  const limits =
    deps.limits ?? createWindowCounter(config, database, (error) => log.warn({ err: error }, 'shared limits error'));
  if (!deps.limits) closeWithApp(() => limits.close());
  const cache = createSharedCache(config, database, reportAtMostEveryMinute(log, 'shared cache error'));
  closeWithApp(() => cache.close());
  const secret = resolveSecret(config.JWT_SECRET, config.dataDir);
  const jobs =
    deps.jobs ??
    createJobQueue(database, {
      maintenanceIntervalSeconds: config.JOBS_MAINTENANCE_S,
      onError: (error) => log.warn({ err: error }, 'job queue error'),
    });
  app.decorate('jobs', jobs);
  const pubsub = deps.pubsub ?? createPubSub(config, database, (error) => log.warn({ err: error }, 'pub/sub error'));
  app.decorate('pubsub', pubsub);
  if (!deps.pubsub) closeWithApp(() => pubsub.close());
  // Every access token names its session; each request checks it (cached, invalidated on every replica).
  const sessions = new Sessions({ db: database.db, pubsub, log });
  await sessions.listen();
  app.decorate('sessions', sessions);
  closeWithApp(() => sessions.close());
  // Speech recognition for calls (docs/calls.md); its state shows in GET /api/config.
  const stt = deps.stt ?? createSttProvider(config, providerLog(log, 'stt'));
  app.decorate('stt', stt);
  closeWithApp(() => stt.close?.());
  const moderation = deps.moderation ?? createModerationProvider(config);
  const storage = deps.storage ?? createMediaStorage(config);
  const imageModeration = deps.imageModeration ?? createImageModeration(config, moderation, log);
  if (imageModeration.name === 'none') {
    log.warn(
      '!!! IMAGE_MODERATION=none: uploaded pictures are NOT judged locally (no face-age estimate, no nudity' +
        ` classifier)${moderation.name === 'rules' ? ' and no moderation provider judges them either' : ''}; docs/moderation.md !!!`,
    );
  }
  app.decorate('imageModeration', imageModeration);
  closeWithApp(() => imageModeration.close());
  // The language model (docs/llm.md). The default one is lazy: nothing loads or downloads until
  // `warmUp()` (server.ts, after listening) or a first reply.
  const llm =
    deps.llm ??
    createLlmProvider(config, { modelsDir: path.join(config.dataDir, 'models'), log: providerLog(log, 'llm') });
  app.decorate('llm', llm);
  closeWithApp(() => llm.close?.());
  const tts = deps.tts ?? createTtsProvider(config, providerLog(log, 'tts'));
  closeWithApp(() => tts.close?.());
  const payments = deps.payments ?? createPaymentProviders(config);
  for (const warning of payments.warnings) log.warn({ payments: true }, warning);
  const mail = createMailProvider(config, database.db, edition, jobs, { log });
  closeWithApp(() => mail.close?.());
  return {
    config,
    database,
    db: database.db,
    log,
    edition,
    secret,
    tokens: new TokenSigner(secret),
    urls: new MediaUrls(secret),
    storage,
    limits,
    cache,
    pictureWork: new PictureWork(config.IMAGE_CONCURRENCY, config.IMAGE_QUEUE),
    jobs,
    pubsub,
    mail,
    payments,
    moderation,
    imageModeration,
    images: deps.images === undefined ? createImageProvider(config) : deps.images,
    llm,
    tts,
    stt,
    sessions,
  };
}

/** A provider's log lines (the language model, speech), under the app's logger. */
export function providerLog(log: FastifyBaseLogger, module: string) {
  const child = log.child({ module });
  return {
    info: (msg: string) => child.info(msg),
    warn: (msg: string) => child.warn(msg),
    error: (msg: string) => child.error(msg),
  };
}

/** A provider's connection errors (a client retrying while Redis is away): one log line a minute at most. */
function reportAtMostEveryMinute(log: FastifyBaseLogger, message: string): (error: unknown) => void {
  let last = -Infinity;
  return (error) => {
    if (Date.now() - last < 60_000) return;
    last = Date.now();
    log.warn({ err: error }, message);
  };
}
