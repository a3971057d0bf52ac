import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AdminCountSchema,
  AdminMessageReportDetailSchema,
  AdminMessageReportListSchema,
  AdminMessageReportsQuerySchema,
  AdminReportIdParamsSchema,
  AdminResolveBodySchema,
  AdminSupportAnswerBodySchema,
  AdminSupportReportListSchema,
  AdminSupportReportSchema,
  AdminSupportReportsQuerySchema,
  AdminUuidParamsSchema,
  ApiErrorSchema,
} from '@reverie/shared';
import { apiErrors } from '../../lib/errors.js';
import type { AdminReportsService } from './reports.service.js';

const errors = apiErrors(400, 401, 403, 404);
const tags = ['admin'];

/** `/api/admin/reports…` (docs/admin.md "Reports"); behind `requireAdmin` (admin.routes.ts). */
export const adminReportsRoutes: FastifyPluginAsyncZod<{ service: AdminReportsService }> = async (app, { service }) => {
  app.get(
    '/reports/count',
    {
      schema: { tags, summary: 'Open message and support reports', response: { 200: AdminCountSchema, ...errors } },
    },
    async () => ({ count: await service.countOpen() }),
  );

  app.get(
    '/reports/messages',
    {
      schema: {
        tags,
        summary: 'Message reports',
        querystring: AdminMessageReportsQuerySchema,
        response: { 200: AdminMessageReportListSchema, ...errors },
      },
    },
    async (request) => service.listMessageReports(request.query.status),
  );

  app.get(
    '/reports/messages/:id',
    {
      schema: {
        tags,
        summary: 'A message report with the messages around the reported one',
        params: AdminReportIdParamsSchema,
        response: { 200: AdminMessageReportDetailSchema, ...errors },
      },
    },
    async (request) => service.messageReport(request.params.id),
  );

  app.post(
    '/reports/messages/:id/resolve',
    {
      schema: {
        tags,
        summary: 'Resolve a message report with a note',
        params: AdminReportIdParamsSchema,
        body: AdminResolveBodySchema,
        response: { 200: AdminMessageReportDetailSchema, ...errors },
      },
    },
    async (request) => service.resolveMessageReport(request.userId!, request.params.id, request.body.note),
  );

  app.post(
    '/reports/messages/:id/remove-message',
    {
      schema: {
        tags,
        summary: 'Delete the reported message and its files (its reports go with it)',
        params: AdminReportIdParamsSchema,
        body: AdminResolveBodySchema,
        response: { 200: z.object({ removed: z.literal(true) }), ...errors },
      },
    },
    async (request) => {
      await service.removeReportedMessage(request.userId!, request.params.id, request.body.note);
      return { removed: true as const };
    },
  );

  app.get(
    '/reports/support',
    {
      schema: {
        tags,
        summary: 'Support reports',
        querystring: AdminSupportReportsQuerySchema,
        response: { 200: AdminSupportReportListSchema, ...errors },
      },
    },
    async (request) => service.listSupportReports(request.query.status),
  );

  app.get(
    '/reports/support/:id',
    {
      schema: {
        tags,
        summary: 'A support report',
        params: AdminUuidParamsSchema,
        response: { 200: AdminSupportReportSchema, ...errors },
      },
    },
    async (request) => service.supportReport(request.params.id),
  );

  app.post(
    '/reports/support/:id/answer',
    {
      schema: {
        tags,
        summary: "Answer a support report by e-mail (to its address, else its author's)",
        params: AdminUuidParamsSchema,
        body: AdminSupportAnswerBodySchema,
        response: { 200: AdminSupportReportSchema, 409: ApiErrorSchema, 503: ApiErrorSchema, ...errors },
      },
    },
    async (request) =>
      service.answerSupportReport(request.userId!, request.params.id, request.body.answer, request.body.close),
  );

  app.post(
    '/reports/support/:id/close',
    {
      schema: {
        tags,
        summary: 'Close a support report',
        params: AdminUuidParamsSchema,
        response: { 200: AdminSupportReportSchema, ...errors },
      },
    },
    async (request) => service.closeSupportReport(request.userId!, request.params.id),
  );
};
