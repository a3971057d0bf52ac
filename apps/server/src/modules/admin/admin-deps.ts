import type { FastifyBaseLogger } from 'fastify';
import type { Edition } from '@reverie/shared';
import type { Database } from '../../db/client.js';
import type { MailProvider } from '../../providers/mail/mail.provider.js';
import type { MediaStorage } from '../../providers/storage/index.js';
import type { MediaUrls } from '../../lib/media-urls.js';
import type { AccountsService, Sessions } from '../accounts/index.js';

import type { BotsManageService } from '../bots/index.js';

/** What the admin console's services are given (app.ts builds it once). */
export interface AdminDeps {
  db: Database;
  mail: MailProvider;
  storage: MediaStorage;
  urls: MediaUrls;
  sessions: Sessions;
  edition: Edition;
  publicUrl: string;
  log: FastifyBaseLogger;
  /** The accounts module's delete-all-data path (cancels the subscription first). */
  accounts: Pick<AccountsService, 'deleteAllData'>;
  /** The bots module's service for the console (characters, review queue): same moderation and photo check. */
  bots: BotsManageService;
}
