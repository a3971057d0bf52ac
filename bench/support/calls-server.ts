/**
 * The server of the `calls` benchmark, in its own process (so that its CPU is its own):
 * `node --import tsx bench/support/calls-server.ts`. The app as built by `buildApp` on a
 * PGlite database in BENCH_DATA_DIR, the settings in BENCH_ENV (JSON), Silero VAD (as in
 * production; CALL_VAD in BENCH_ENV picks WebRTC's). It creates BENCH_USERS premium users and one character,
 * prints `ready <port> <slug> <token,token,…>`, then one `timings <json>` line per call turn.
 */
import type { AddressInfo } from 'node:net';
import { buildApp } from '../../apps/server/src/app.js';
import { loadConfig } from '../../apps/server/src/config.js';
import { openDatabase } from '../../apps/server/src/db/client.js';
import { applyMigrations } from '../../apps/server/src/db/migrate.js';
import { createBot, createPremium, createUser } from '../../apps/server/test/factories.js';

const database = await openDatabase({ pgliteDir: process.env.BENCH_DATA_DIR! });
await applyMigrations(database, null);
const config = loadConfig({
  NODE_ENV: 'production',
  LOG_LEVEL: 'silent',
  DATA_DIR: process.env.BENCH_DATA_DIR!,
  ...(JSON.parse(process.env.BENCH_ENV ?? '{}') as Record<string, string>),
});
const app = await buildApp({
  config,
  database,
  logger: false,
  webDistDir: null,
  onCallTimings: (timings) => process.stdout.write(`timings ${JSON.stringify(timings)}\n`),
});
await app.listen({ port: 0, host: '127.0.0.1' });
const bot = await createBot(database.db, { voice: 'en-us+f3' });
const tokens: string[] = [];
for (let i = 0; i < Number(process.env.BENCH_USERS ?? 1); i++) {
  const { user, token } = await createUser(app, database.db);
  await createPremium(database.db, user.id);
  tokens.push(token);
}
process.stdout.write(`ready ${(app.server.address() as AddressInfo).port} ${bot.slug} ${tokens.join(',')}\n`);
const stop = async () => {
  await app.close();
  await database.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
