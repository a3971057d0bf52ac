import type { FastifyPluginAsync } from 'fastify';
import { requireAdmin } from '../../plugins/auth.js';
import { auditRoutes } from './audit.routes.js';
import type { AdminAuditService } from './audit.service.js';
import { adminBlogRoutes } from './blog.routes.js';
import type { AdminBlogService } from './blog.service.js';
import { adminCharactersRoutes } from './characters.routes.js';
import type { AdminCharactersService } from './characters.service.js';
import { overviewRoutes } from './overview.routes.js';
import type { AdminOverviewService } from './overview.service.js';
import { paymentsRoutes } from './payments.routes.js';
import type { AdminPaymentsService } from './payments.service.js';
import { adminReportsRoutes } from './reports.routes.js';
import type { AdminReportsService } from './reports.service.js';
import { adminTakedownRoutes } from './takedown.routes.js';
import type { AdminTakedownService } from './takedown.service.js';
import { usersRoutes } from './users.routes.js';
import type { AdminUsersService } from './users.service.js';

/** One service per section of the console (adminModule builds them). */
export interface AdminServices {
  overview: AdminOverviewService;
  users: AdminUsersService;
  payments: AdminPaymentsService;
  audit: AdminAuditService;
  characters: AdminCharactersService;
  blog: AdminBlogService;
  takedown: AdminTakedownService;
  reports: AdminReportsService;
}

/**
 * Every `/api/admin/…` route (adminModule registers it under that prefix). The check runs on
 * `onRequest`, before the body is read or validated: a guest gets 401 and a user 403 whatever
 * they send. Each section of the console registers its routes here; every write records
 * itself in the audit log (`recordAudit`, in the write's transaction).
 */
export const adminRoutes: FastifyPluginAsync<{ services: AdminServices }> = async (app, { services }) => {
  app.addHook('onRequest', requireAdmin);
  await app.register(overviewRoutes, { service: services.overview });
  await app.register(usersRoutes, { service: services.users });
  await app.register(paymentsRoutes, { service: services.payments });
  await app.register(auditRoutes, { service: services.audit });
  await app.register(adminCharactersRoutes, { service: services.characters });
  await app.register(adminBlogRoutes, { service: services.blog });
  await app.register(adminTakedownRoutes, { service: services.takedown });
  await app.register(adminReportsRoutes, { service: services.reports });
};
