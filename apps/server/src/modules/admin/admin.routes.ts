import type { FastifyPluginAsync } from 'fastify';
import { requireAdmin } from '../../plugins/auth.js';
import type { AdminDeps } from './admin-deps.js';
import { auditRoutes } from './audit.routes.js';
import { overviewRoutes } from './overview.routes.js';
import { paymentsRoutes } from './payments.routes.js';
import { usersRoutes } from './users.routes.js';
import { adminBlogRoutes } from './blog.routes.js';
import { adminCharactersRoutes } from './characters.routes.js';
import { adminReportsRoutes } from './reports.routes.js';
import { adminTakedownRoutes } from './takedown.routes.js';

/**
 * Every `/api/admin/…` route (registered by app.ts under that prefix). The check runs on
 * `onRequest`, before the body is read or validated: a guest gets 401 and a user 403 whatever
 * they send. Each section of the console registers its routes here; every write records
 * itself in the audit log (`recordAudit`, in the write's transaction).
 */
export const adminRoutes: FastifyPluginAsync<{ deps: AdminDeps }> = async (app, { deps }) => {
  app.addHook('onRequest', requireAdmin);
  await app.register(overviewRoutes, { deps });
  await app.register(usersRoutes, { deps });
  await app.register(paymentsRoutes, { deps });
  await app.register(auditRoutes, { deps });
  await app.register(adminCharactersRoutes, { deps });
  await app.register(adminBlogRoutes, { deps });
  await app.register(adminTakedownRoutes, { deps });
  await app.register(adminReportsRoutes, { deps });
};
