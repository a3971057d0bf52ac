import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AdminTakedownCountSchema,
  AdminIdParamsSchema,
  AdminTakedownDetailSchema,
  AdminTakedownListQuerySchema,
  AdminTakedownListSchema,
  AdminTakedownRejectBodySchema,
  AdminTakedownRemoveBodySchema,
  ApiErrorSchema,
} from '@reverie/shared';
import { apiErrors } from '../../lib/errors.js';
import type { AdminTakedownService } from './takedown.service.js';

const errors = apiErrors(400, 401, 403, 404);
const tags = ['admin'];

/** `/api/admin/takedown…` (docs/admin.md "Takedown"); behind `requireAdmin` (admin.routes.ts). */
export const adminTakedownRoutes: FastifyPluginAsyncZod<{ service: AdminTakedownService }> = async (
  app,
  { service },
) => {
  app.get(
    '/takedown',
    {
      schema: {
        tags,
        summary: 'Takedown requests with their 48-hour clock',
        querystring: AdminTakedownListQuerySchema,
        response: { 200: AdminTakedownListSchema, ...errors },
      },
    },
    async (request) => service.list({ status: request.query.status, order: request.query.order }),
  );

  app.get(
    '/takedown/count',
    {
      schema: {
        tags,
        summary: 'Open takedown requests, and how many are past their 48 hours',
        response: { 200: AdminTakedownCountSchema, ...errors },
      },
    },
    async () => service.counts(),
  );

  app.get(
    '/takedown/:id',
    {
      schema: {
        tags,
        summary: 'A takedown request, each item read against what is stored',
        params: AdminIdParamsSchema,
        response: { 200: AdminTakedownDetailSchema, ...errors },
      },
    },
    async (request) => service.detail(request.params.id),
  );

  app.post(
    '/takedown/:id/remove',
    {
      schema: {
        tags,
        summary: 'Take the chosen items down everywhere they are stored; the reporter is e-mailed',
        params: AdminIdParamsSchema,
        body: AdminTakedownRemoveBodySchema,
        response: { 200: AdminTakedownDetailSchema, 409: ApiErrorSchema, ...errors },
      },
    },
    async (request) => service.remove(request.userId!, request.params.id, request.body.items, request.body.note),
  );

  app.post(
    '/takedown/:id/reject',
    {
      schema: {
        tags,
        summary: 'Reject the request; the reason is e-mailed to the reporter',
        params: AdminIdParamsSchema,
        body: AdminTakedownRejectBodySchema,
        response: { 200: AdminTakedownDetailSchema, 409: ApiErrorSchema, ...errors },
      },
    },
    async (request) => service.reject(request.userId!, request.params.id, request.body.reason),
  );
};
