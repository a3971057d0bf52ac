/**
 * One replica of the app in its own process, for the tests that kill a replica (SIGKILL):
 * `tsx test/replica-process.ts`. It opens the PostgreSQL database in REPLICA_DATABASE_URL,
 * builds the app with the settings in REPLICA_ENV (JSON) and the live-reply timings in
 * REPLICA_LIVE (JSON), listens on a free port and prints `listening <port>`. With REPLICA_CALLS
 * (JSON: the call timings) it takes voice calls, with the energy VAD of the call tests.
 */
import type { AddressInfo } from 'node:net';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/client.js';
import { EnergyVad } from './call-audio.js';

const database = await openDatabase({ url: process.env.REPLICA_DATABASE_URL!, poolSize: 3 });
const config = loadConfig({
  NODE_ENV: 'test',
  LOG_LEVEL: 'silent',
  DATA_DIR: '/tmp/reverie-test-data',
  ...(JSON.parse(process.env.REPLICA_ENV ?? '{}') as Record<string, string>),
});
const app = await buildApp({
  config,
  database,
  logger: false,
  webDistDir: null,
  liveReplies: JSON.parse(process.env.REPLICA_LIVE ?? '{}') as object,
  ...(process.env.REPLICA_CALLS
    ? { vad: () => new EnergyVad(), calls: JSON.parse(process.env.REPLICA_CALLS) as object }
    : {}),
});
await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`listening ${(app.server.address() as AddressInfo).port}\n`);
