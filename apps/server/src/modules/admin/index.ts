import type { AppDependencies, Core } from '../../core.js';
import { defineModule } from '../../lib/module.js';
import type {
  AdminAccounts,
  AdminBilling,
  AdminBlogPosts,
  AdminBots,
  AdminDeps,
  AdminTransforms,
} from './admin-deps.js';
import { adminRoutes } from './admin.routes.js';
import { AdminAuditService } from './audit.service.js';
import { AdminBlogService } from './blog.service.js';
import { AdminCharactersService } from './characters.service.js';
import { newLocalAdminKey } from './local-admin.js';
import { localAdminRoutes } from './local-admin.routes.js';
import { LocalAdminService } from './local-admin.service.js';
import { AdminOverviewService } from './overview.service.js';
import { AdminPaymentsService } from './payments.service.js';
import { AdminReportsService } from './reports.service.js';
import { AdminTakedownService } from './takedown.service.js';
import { AdminUsersService } from './users.service.js';

export type AdminModuleDeps = Pick<
  Core,
  'config' | 'database' | 'db' | 'log' | 'mail' | 'storage' | 'urls' | 'sessions' | 'edition'
> &
  Pick<AppDependencies, 'localAdminKey'> & {
    accounts: AdminAccounts;
    billing: AdminBilling;
    bots: AdminBots;
    blog: AdminBlogPosts;
    transforms: AdminTransforms;
  };

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The key `npm run admin:create|ban|unban` presents to `POST /api/local/admin`; server.ts
     * writes it to `DATA_DIR/local-admin.json` (0600) when it listens on PGlite.
     */
    localAdminKey: string;
  }
}

/**
 * The admin module (docs/admin.md): the console's API under `/api/admin` behind one
 * `requireAdmin` check, and `POST /api/local/admin` for the operator commands on PGlite.
 */
export const adminModule = defineModule<AdminModuleDeps>('admin', async (app, deps) => {
  const { config, database } = deps;
  const admin: AdminDeps = { ...deps, publicUrl: config.PUBLIC_URL, log: deps.log.child({ module: 'admin' }) };
  // npm run admin:create/ban/unban through this server (docs/operations.md "The first
  // administrator"): only on the embedded database, which no second process may open. On
  // PostgreSQL the command writes to the shared database itself, so the route does not exist there.
  const localAdminKey = deps.localAdminKey ?? newLocalAdminKey();
  app.decorate('localAdminKey', localAdminKey);
  if (database.driver === 'pglite')
    await app.register(localAdminRoutes, { service: new LocalAdminService(admin), key: localAdminKey });
  await app.register(adminRoutes, {
    prefix: '/api/admin',
    services: {
      overview: new AdminOverviewService(admin),
      users: new AdminUsersService(admin),
      payments: new AdminPaymentsService(admin),
      audit: new AdminAuditService(admin),
      characters: new AdminCharactersService(admin),
      blog: new AdminBlogService(admin),
      takedown: new AdminTakedownService(admin),
      reports: new AdminReportsService(admin),
    },
  });
});

/** The narrow views of other modules the console is given (app.ts builds them). */
export type {
  AdminAccounts,
  AdminBilling,
  AdminBlogPosts,
  AdminBots,
  AdminTransforms,
  OperatorCommand,
  OperatorResult,
} from './admin-deps.js';
/**
 * The audit log's writer: the operator commands run from the command line (cli/operator.ts)
 * record their changes with it, in the database they write to.
 */
export { OPERATOR_ACTOR, recordAudit } from './audit.repository.js';
/** The local operator key's file (server.ts writes it, the command line reads it). */
export {
  LOCAL_ADMIN_KEY_HEADER,
  localAdminKeyPath,
  readLocalAdminKey,
  removeLocalAdminKey,
  writeLocalAdminKey,
  type LocalAdminKeyFile,
} from './local-admin.js';
