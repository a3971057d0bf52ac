import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AdminDesiresBodySchema,
  AdminDesiresResultSchema,
  AdminLedgerPageSchema,
  AdminLedgerQuerySchema,
  AdminOkSchema,
  AdminOptionalReasonBodySchema,
  AdminReasonBodySchema,
  AdminRoleBodySchema,
  AdminUserDetailSchema,
  AdminUserIdParamsSchema,
  AdminUserListSchema,
  AdminUserSearchQuerySchema,
  ApiErrorSchema,
} from '@reverie/shared';
import { currentUserId } from '../../plugins/auth.js';
import type { AdminUsersService } from './users.service.js';

const denied = { 401: ApiErrorSchema, 403: ApiErrorSchema };
const writeErrors = { ...denied, 400: ApiErrorSchema, 404: ApiErrorSchema, 409: ApiErrorSchema };

/** The Users section: search, a user's page, and the account actions (each audited). */
export const usersRoutes: FastifyPluginAsyncZod<{ service: AdminUsersService }> = async (app, { service: users }) => {
  app.get(
    '/users',
    {
      schema: {
        tags: ['admin'],
        summary: 'Users whose name, username or e-mail contains `q` (case-insensitive), newest first',
        querystring: AdminUserSearchQuerySchema,
        response: { 200: AdminUserListSchema, 400: ApiErrorSchema, ...denied },
      },
    },
    async (request) => users.search(request.query.q, request.query.offset, request.query.size),
  );

  app.get(
    '/users/:id',
    {
      schema: {
        tags: ['admin'],
        summary: "A user's profile, balance, payments, subscription and sessions",
        params: AdminUserIdParamsSchema,
        response: { 200: AdminUserDetailSchema, 400: ApiErrorSchema, 404: ApiErrorSchema, ...denied },
      },
    },
    async (request) => users.detail(request.params.id),
  );

  app.get(
    '/ledger',
    {
      schema: {
        tags: ['admin'],
        summary: 'Ledger entries, newest first (keyset pages); optionally one user',
        querystring: AdminLedgerQuerySchema,
        response: { 200: AdminLedgerPageSchema, 400: ApiErrorSchema, ...denied },
      },
    },
    async (request) => users.ledger({ userId: request.query.user, cursor: request.query.c, size: request.query.size }),
  );

  app.post(
    '/users/:id/desires',
    {
      schema: {
        tags: ['admin'],
        summary: 'Grant (amount > 0) or remove (amount < 0) desires with a reason; never below zero (409)',
        params: AdminUserIdParamsSchema,
        body: AdminDesiresBodySchema,
        response: { 200: AdminDesiresResultSchema, ...writeErrors },
      },
    },
    async (request) =>
      users.adjustDesires(currentUserId(request), request.params.id, request.body.amount, request.body.reason),
  );

  app.post(
    '/users/:id/ban',
    {
      schema: {
        tags: ['admin'],
        summary: "Ban with a reason (shown at log-in); the user's sessions end at once on every replica",
        params: AdminUserIdParamsSchema,
        body: AdminReasonBodySchema,
        response: { 200: AdminOkSchema, ...writeErrors },
      },
    },
    async (request) => {
      await users.ban(currentUserId(request), request.params.id, request.body.reason);
      return { ok: true as const };
    },
  );

  app.post(
    '/users/:id/unban',
    {
      schema: {
        tags: ['admin'],
        summary: 'Lift a ban',
        params: AdminUserIdParamsSchema,
        body: AdminOptionalReasonBodySchema,
        response: { 200: AdminOkSchema, ...writeErrors },
      },
    },
    async (request) => {
      await users.unban(currentUserId(request), request.params.id, request.body.reason || null);
      return { ok: true as const };
    },
  );

  app.post(
    '/users/:id/end-sessions',
    {
      schema: {
        tags: ['admin'],
        summary: 'End every session of the user (log out everywhere)',
        params: AdminUserIdParamsSchema,
        body: AdminOptionalReasonBodySchema,
        response: { 200: AdminOkSchema, ...writeErrors },
      },
    },
    async (request) => {
      await users.endSessions(currentUserId(request), request.params.id, request.body.reason || null);
      return { ok: true as const };
    },
  );

  app.post(
    '/users/:id/role',
    {
      schema: {
        tags: ['admin'],
        summary: 'Promote to administrator or demote; an administrator cannot demote themselves (409)',
        params: AdminUserIdParamsSchema,
        body: AdminRoleBodySchema,
        response: { 200: AdminOkSchema, ...writeErrors },
      },
    },
    async (request) => {
      await users.setRole(currentUserId(request), request.params.id, request.body.role, request.body.reason || null);
      return { ok: true as const };
    },
  );

  app.post(
    '/users/:id/delete',
    {
      schema: {
        tags: ['admin'],
        summary: 'Delete the account and all its data (subscription cancelled first); not oneself (409)',
        params: AdminUserIdParamsSchema,
        body: AdminReasonBodySchema,
        response: { 200: AdminOkSchema, ...writeErrors, 502: ApiErrorSchema },
      },
    },
    async (request) => {
      await users.delete(currentUserId(request), request.params.id, request.body.reason);
      return { ok: true as const };
    },
  );
};
