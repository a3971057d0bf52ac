import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ClientConfigSchema, HealthSchema, ReadySchema, getEdition } from '@reverie/shared';
import type { Config } from '../../config.js';
import type { DatabaseHandle } from '../../db/client.js';
import { migrationsApplied } from '../../db/migrate.js';

export interface SystemRoutesOptions {
  config: Config;
  database: DatabaseHandle;
  version: string;
  /** Whether a voice call can start now, and why not (modules/calls). */
  calls: () => { available: boolean; reason: 'stt_unavailable' | null };
  /** Public custom characters are published at once (MODERATION_AUTO_APPROVE with a provider that can). */
  autoApproveCharacters: boolean;
}

/** Liveness, readiness and the public client configuration. */
export const systemRoutes: FastifyPluginAsyncZod<SystemRoutesOptions> = async (
  app,
  { config, database, version, calls, autoApproveCharacters },
) => {
  const edition = getEdition(config.APP_NAME);
  const communityUrl = config.COMMUNITY_URL === 'none' ? null : (config.COMMUNITY_URL ?? edition.communityUrl);

  app.get(
    '/api/health',
    { schema: { tags: ['system'], summary: 'Liveness', response: { 200: HealthSchema } } },
    async () => ({ status: 'ok' as const, uptime_s: Math.round(process.uptime()), version }),
  );

  app.get(
    '/api/ready',
    {
      schema: {
        tags: ['system'],
        summary: 'Readiness: the database answers and every migration is applied',
        response: { 200: ReadySchema, 503: ReadySchema },
      },
    },
    async (_request, reply) => {
      const databaseOk = await database.ping();
      const migrationsOk = databaseOk && (await migrationsApplied(database));
      const ready = databaseOk && migrationsOk;
      return reply.status(ready ? 200 : 503).send({
        status: ready ? 'ready' : 'not_ready',
        checks: { database: databaseOk, migrations: migrationsOk },
      });
    },
  );

  app.get(
    '/api/config',
    {
      schema: { tags: ['system'], summary: 'Public settings the web app needs', response: { 200: ClientConfigSchema } },
    },
    async () => ({
      edition: edition.id,
      community_url: communityUrl,
      support_email: edition.supportEmail,
      rewardful_key: config.REWARDFUL_API_KEY ?? null,
      calls: calls(),
      auto_approve_characters: autoApproveCharacters,
    }),
  );
};
