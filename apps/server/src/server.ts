import closeWithGrace from 'close-with-grace';
import { ConfigError, loadConfig } from './config.js';
import { DatabaseLockedError } from './db/pglite-lock.js';
import type { AddressInfo } from 'node:net';
import { prepareServer } from './runtime.js';
import { removeLocalAdminKey, writeLocalAdminKey } from './modules/admin/index.js';

/** Reads the settings, prepares the app and listens; shuts down gracefully on signals. */
async function main() {
  const started = performance.now();
  const config = loadConfig();
  const { app, database } = await prepareServer(config);

  closeWithGrace({ delay: config.SHUTDOWN_GRACE_S * 1000 }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'shutting down after an error');
    else app.log.info({ signal }, 'shutting down');
    await app.close();
  });

  await app.listen({ host: config.HOST, port: config.PORT });
  if (database.driver === 'pglite') {
    // npm run admin:create|ban|unban ask this server (the embedded database is ours alone).
    const { port } = app.server.address() as AddressInfo;
    writeLocalAdminKey(config.dataDir, { pid: process.pid, url: `http://127.0.0.1:${port}`, key: app.localAdminKey });
    process.on('exit', () => removeLocalAdminKey(config.dataDir));
  }
  app.log.info(
    { database: database.driver, edition: config.APP_NAME, startup_ms: Math.round(performance.now() - started) },
    `ready at ${config.PUBLIC_URL}`,
  );
  // The local model pulls and loads in the background: the server is ready before it is;
  // replies say `model_loading` (or why the model is unavailable) until then.
  void app.llm.warmUp?.();
  // The picture models load in their worker meanwhile; an upload before then waits for them.
  app.imageModeration.warm().then(
    () => app.log.info('image moderation ready'),
    (error: unknown) => app.log.error({ err: error }, 'image moderation could not load its models'),
  );
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DatabaseLockedError) console.error(error.message);
  else console.error(error);
  process.exit(1);
});
