import fs from 'node:fs';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import path from 'node:path';
import { PGlite, type PGliteOptions } from '@electric-sql/pglite';
import postgres from 'postgres';
import { expect, inject } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppDependencies } from '../src/app.js';
import { loadConfig, type Config } from '../src/config.js';
import { openDatabase, PGLITE_EXTENSIONS, type DatabaseHandle } from '../src/db/client.js';
import { createJobQueue } from '../src/providers/jobs/index.js';
import { DATABASE_FREE_TESTS } from './database-free.js';
import { withDatabase } from './global-setup.js';
import { cleanups } from './cleanups.js';

/**
 * PGlite's WebAssembly modules compiled once and its file bundle read once per worker, not
 * again for every database (≈ 0.3 s each; test files make hundreds).
 */
type WasmModule = NonNullable<PGliteOptions['pgliteWasmModule']>;
let pgliteAssetsLoading: Promise<Pick<PGliteOptions, 'pgliteWasmModule' | 'initdbWasmModule' | 'fsBundle'>> | null =
  null;
function pgliteAssets() {
  pgliteAssetsLoading ??= (async () => {
    const dist = path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite'));
    const [pgliteWasm, initdbWasm, bundle] = await Promise.all(
      ['pglite.wasm', 'initdb.wasm', 'pglite.data'].map((file) => fs.promises.readFile(path.join(dist, file))),
    );
    // The server's TypeScript settings have no DOM library, which is where WebAssembly is declared.
    const { compile } = (globalThis as unknown as { WebAssembly: { compile(bytes: Uint8Array): Promise<WasmModule> } })
      .WebAssembly;
    return {
      pgliteWasmModule: await compile(pgliteWasm!),
      initdbWasmModule: await compile(initdbWasm!),
      fsBundle: new Blob([bundle!]),
    };
  })();
  return pgliteAssetsLoading;
}

/**
 * A test database's pools: five connections at most, each closed after a second idle. Two files
 * at once on PostgreSQL open many databases (a file's apps, their replicas and job queues, all
 * kept until the file ends); connections held idle went past the server's default of 100
 * (docs/testing.md "Why it is fast").
 */
const TEST_POOL = { poolSize: 5, idleTimeoutSeconds: 1 };

/** Runs `work` on a connection to the server's maintenance database, closed right after. */
async function asAdmin(url: string, work: (admin: postgres.Sql) => Promise<unknown>): Promise<void> {
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await work(admin);
  } finally {
    await admin.end();
  }
}

/**
 * A clean, migrated database for one test file, closed (and on PostgreSQL dropped) after
 * the file's tests. Refused in the files test/database-free.ts lists.
 */
export async function createTestDatabase(): Promise<DatabaseHandle> {
  const file = expect.getState().testPath;
  if (file && DATABASE_FREE_TESTS.some((free) => file.endsWith(`/apps/server/${free}`))) {
    throw new Error(
      `${file} is listed in test/database-free.ts (left out of the PostgreSQL pass) but creates a database: take it off the list`,
    );
  }
  const target = inject('testDb');
  if (target.kind === 'pglite') {
    const pglite = await PGlite.create({
      loadDataDir: new Blob([fs.readFileSync(target.file)]),
      extensions: PGLITE_EXTENSIONS,
      ...(await pgliteAssets()),
    });
    const handle = await openDatabase({ pglite });
    cleanups.push(() => handle.close());
    return handle;
  }
  const name = `reverie_t_${randomBytes(6).toString('hex')}`;
  // The server's connection for CREATE and DROP is open only for them, not while the file runs.
  await asAdmin(target.url, (admin) => admin.unsafe(`create database ${name} template ${target.template}`));
  const handle = await openDatabase({ url: withDatabase(target.url, name), ...TEST_POOL });
  cleanups.push(async () => {
    await handle.close().catch(() => undefined);
    await asAdmin(target.url, (admin) => admin.unsafe(`drop database if exists ${name} with (force)`));
  });
  return handle;
}

/**
 * The same database as a second replica sees it: on PostgreSQL its own connection pool
 * (closed after the file's tests), on PGlite the same handle (one process). Build a second
 * app on it with `createTestApp({ database: replica })`.
 */
export async function openReplicaDatabase(database: DatabaseHandle): Promise<DatabaseHandle> {
  if (database.raw.kind !== 'postgres') return database;
  const replica = await openDatabase({ url: database.raw.url, ...TEST_POOL });
  cleanups.push(() => replica.close());
  return replica;
}

/** Settings for tests: defaults plus the given overrides, never the machine's environment. */
export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: '/tmp/reverie-test-data',
    JWT_SECRET: 'test-secret-test-secret-test-secret-0123456789',
    // Tests insert characters straight into the database (factories), which no cache hears of:
    // the guest catalogue's cache is on only where a test names it (catalogue-cache.test.ts).
    CATALOGUE_CACHE_S: '0',
    ...overrides,
  });
}

export interface TestApp {
  app: FastifyInstance;
  database: DatabaseHandle;
  config: Config;
}

/**
 * Builds the app on a fresh database; use `app.inject` to call it (no port).
 *
 * The picture judge is the fake (IMAGE_MODERATION=fake: the local judge's contract, no models)
 * unless `env` names another judge or another NODE_ENV than test, or `imageModeration` is given: loading face-api and nsfwjs costs
 * seconds of CPU per file, and only the judge's own tests need them (docs/testing.md).
 */
export async function createTestApp(
  options: {
    env?: Record<string, string>;
    database?: DatabaseHandle;
    /**
     * The job queue's schema. Apps on a database of their own use the template's (`pgboss`);
     * apps given a database another app uses get a schema of their own (so that one app's jobs
     * are not run by another's fake providers) unless they name one — the same one to act as
     * replicas of each other.
     */
    jobsSchema?: string;
  } & Partial<Omit<AppDependencies, 'config' | 'database'>> = {},
): Promise<TestApp> {
  const database = options.database ?? (await createTestDatabase());
  // The fake is refused outside NODE_ENV=test: an app built as production keeps the local judge.
  const nodeEnv = options.env?.NODE_ENV ?? 'test';
  const config = testConfig({ IMAGE_MODERATION: nodeEnv === 'test' ? 'fake' : 'local', ...options.env });
  const jobsSchema = options.jobsSchema ?? (options.database ? `pgboss_${randomBytes(4).toString('hex')}` : 'pgboss');
  const jobs =
    options.jobs ??
    createJobQueue(database, {
      schema: jobsSchema,
      poolSize: 2,
      idleTimeoutMillis: TEST_POOL.idleTimeoutSeconds * 1000,
      maintenanceIntervalSeconds: config.JOBS_MAINTENANCE_S,
      pollingIntervalSeconds: 0.5,
    });
  const app = await buildApp({
    config,
    database,
    logger: false,
    webDistDir: options.webDistDir ?? null,
    storage: options.storage,
    moderation: options.moderation,
    imageModeration: options.imageModeration,
    payments: options.payments,
    llm: options.llm,
    images: options.images,
    transformProvider: options.transformProvider,
    tts: options.tts,
    stt: options.stt,
    vad: options.vad,
    calls: options.calls,
    onCallTimings: options.onCallTimings,
    pubsub: options.pubsub,
    liveReplies: options.liveReplies,
    proactiveNotify: options.proactiveNotify,
    limits: options.limits,
    pushAgent: options.pushAgent,
    jobs,
  });
  await app.ready();
  cleanups.push(() => app.close());
  return { app, database, config };
}
