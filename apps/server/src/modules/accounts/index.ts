import type { Core } from '../../core.js';
import { defineModule } from '../../lib/module.js';
import { accountsRoutes } from './accounts.routes.js';
import { AccountsConsole } from './accounts.console.js';
import { AccountsService, type AccountsBilling } from './accounts.service.js';
import { mailboxRoutes } from './mailbox.routes.js';
import { MailboxService } from './mailbox.service.js';

export type AccountsModuleDeps = Pick<
  Core,
  'config' | 'db' | 'tokens' | 'sessions' | 'mail' | 'edition' | 'secret' | 'log' | 'storage' | 'limits'
> & {
  /** The billing module: the profile's billing part, a subscription cancelled before deletion. */
  billing: AccountsBilling;
};

declare module 'fastify' {
  interface FastifyInstance {
    /** Accounts; tests wait for mail sent after the answer with `accounts.idle()`. */
    accounts: AccountsService;
    /** What the admin console does with accounts (bans, sessions, deletion, operator commands). */
    accountsConsole: AccountsConsole;
  }
}

/**
 * The accounts module: sign-up, tokens, verification, password recovery, profile, support
 * reports, delete all data, and the local outbox `/dev/mailbox` outside production.
 */
export const accountsModule = defineModule<AccountsModuleDeps>('accounts', async (app, deps) => {
  const { config } = deps;
  const accounts = new AccountsService({
    ...deps,
    publicUrl: config.PUBLIC_URL,
    resetTtlMinutes: config.PASSWORD_RESET_TTL_MIN,
    verificationTtlDays: config.VERIFICATION_TTL_DAYS,
    loginDelays: {
      freeFailures: config.LOGIN_FAILURES_BEFORE_DELAY,
      baseDelayS: config.LOGIN_DELAY_BASE_S,
      maxDelayS: config.LOGIN_DELAY_MAX_S,
      forgetAfterS: Math.max(3600, config.LOGIN_DELAY_MAX_S * 2),
    },
    dataDir: config.dataDir,
    storage: deps.storage,
    billing: deps.billing,
  });
  // Password reset mails go out after the answer; they finish before the database closes.
  app.addHook('preClose', async () => accounts.idle());
  app.decorate('accounts', accounts);
  app.decorate('accountsConsole', new AccountsConsole({ db: deps.db, sessions: deps.sessions, accounts }));
  await app.register(accountsRoutes, {
    service: accounts,
    ipPerMinute: config.AUTH_RATE_LIMIT_IP_PER_MINUTE,
    accountPerMinute: config.AUTH_RATE_LIMIT_ACCOUNT_PER_MINUTE,
    limits: deps.limits,
    supportPerHour: config.SUPPORT_REPORTS_PER_HOUR,
    activationChecksPerHour: config.ACTIVATION_CHECKS_PER_HOUR,
  });
  if (!config.isProduction) await app.register(mailboxRoutes, { service: new MailboxService({ db: deps.db }) });
});

export type { AccountsService, AccountsBilling } from './accounts.service.js';
/** Live sessions: core.ts builds them once; the auth plugin checks each request against them. */
export { Sessions } from './sessions.js';
/** What the auth plugin needs about a live session (defined there: plugins sit below the modules). */
export type { LiveSession } from '../../plugins/auth.js';
/**
 * Bans and ending a user's sessions take a `db` that may be the caller's transaction: the
 * admin console bans inside the transaction of its audit record.
 */
export { banUser, unbanUser, endAllSessions, BAN_REASON_MAX, type BanDeps } from './ban.js';
/** `npm run admin:create|ban|unban`: the command line and the running server's local route. */
export { OPERATOR_EXIT_CODES, OperatorCommands, type OperatorCommand, type OperatorOutcome } from './admin-account.js';
/** The delete-all-data path's types, and which of a chat's files are the user's (chats, the admin console). */
export { deleteChatMedia, ownedChatMediaKeys, type UserDataDeleter } from './user-data.js';
