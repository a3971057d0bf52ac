import type { ClientConfig, Health, Ready } from '@reverie/shared';
import type { Config } from '../../config.js';
import type { DatabaseHandle } from '../../db/client.js';
import type { Edition } from '@reverie/shared';
import { migrationsApplied } from '../../db/migrate.js';

export interface SystemServiceDeps {
  config: Config;
  database: DatabaseHandle;
  edition: Edition;
  version: string;
  /** Whether a voice call can start now, and why not (modules/calls; its probes are kept a while). */
  callsAvailability: () => Promise<ClientConfig['calls']>;
  /** Public custom characters are published at once (MODERATION_AUTO_APPROVE with a provider that can). */
  autoApproveCharacters: boolean;
}

/** Liveness, readiness and the public settings of the web app. */
export class SystemService {
  constructor(private readonly deps: SystemServiceDeps) {}

  health(): Health {
    return { status: 'ok', uptime_s: Math.round(process.uptime()), version: this.deps.version };
  }

  /** Ready when the database answers and every migration is applied. */
  async readiness(): Promise<Ready> {
    const databaseOk = await this.deps.database.ping();
    const migrationsOk = databaseOk && (await migrationsApplied(this.deps.database));
    const ready = databaseOk && migrationsOk;
    return { status: ready ? 'ready' : 'not_ready', checks: { database: databaseOk, migrations: migrationsOk } };
  }

  async clientConfig(): Promise<ClientConfig> {
    const { config, edition } = this.deps;
    return {
      edition: edition.id,
      community_url: config.COMMUNITY_URL === 'none' ? null : (config.COMMUNITY_URL ?? edition.communityUrl),
      support_email: edition.supportEmail,
      rewardful_key: config.REWARDFUL_API_KEY ?? null,
      calls: await this.deps.callsAvailability(),
      auto_approve_characters: this.deps.autoApproveCharacters,
    };
  }
}
