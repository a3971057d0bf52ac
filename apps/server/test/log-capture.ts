import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppDependencies } from '../src/app.js';
import type { Config } from '../src/config.js';
import type { DatabaseHandle } from '../src/db/client.js';
import { loggerOptions } from '../src/lib/logger.js';
import { createTestDatabase, testConfig } from './helpers.js';

/** Log lines written by an app, as text and parsed. */
export interface CapturedLog {
  lines: string[];
  /** Every line joined: what a leak check searches. */
  text(): string;
  entries(): Record<string, unknown>[];
}

/**
 * Builds the app with the production logger options (lib/logger.ts: redaction, serializers)
 * writing JSON lines into memory instead of stdout, at debug level. `extend` may add test
 * routes before the app is ready. `close()` closes the app; the database goes after the file.
 */
export async function createLoggedApp(
  options: {
    env?: Record<string, string>;
    database?: DatabaseHandle;
    extend?: (app: FastifyInstance) => void;
  } & Partial<Omit<AppDependencies, 'config' | 'database' | 'logger'>> = {},
): Promise<{
  app: FastifyInstance;
  database: DatabaseHandle;
  config: Config;
  log: CapturedLog;
  close: () => Promise<void>;
}> {
  const database = options.database ?? (await createTestDatabase());
  const config = testConfig({ LOG_LEVEL: 'debug', LOG_PRETTY: 'false', ...options.env });
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  const app = await buildApp({
    config,
    database,
    logger: { ...loggerOptions(config), stream } as AppDependencies['logger'],
    webDistDir: null,
    storage: options.storage,
    llm: options.llm,
    payments: options.payments,
    moderation: options.moderation,
    images: options.images,
    tts: options.tts,
  });
  options.extend?.(app);
  await app.ready();
  const log: CapturedLog = {
    lines,
    text: () => lines.join('\n'),
    entries: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>),
  };
  return {
    app,
    database,
    config,
    log,
    close: () => app.close(),
  };
}
