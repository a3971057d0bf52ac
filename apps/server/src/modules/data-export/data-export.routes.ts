import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ApiErrorSchema,
  DataExportDownloadQuerySchema,
  DataExportSchema,
  DataExportStatusSchema,
} from '@reverie/shared';
import { apiErrors } from '../../lib/errors.js';
import { currentUserId, requireUser } from '../../plugins/auth.js';
import type { DataExportService } from './data-export.service.js';

export interface DataExportRouteOptions {
  service: DataExportService;
}

const errors = apiErrors(400, 401, 404, 429);

/** "Download my data" (docs/accounts.md): ask, follow, download. */
export const dataExportRoutes: FastifyPluginAsyncZod<DataExportRouteOptions> = async (app, { service }) => {
  app.get(
    '/api/profile/data_export',
    {
      preHandler: requireUser,
      schema: {
        tags: ['profile'],
        summary: "The user's latest data archive: preparing, ready (with its expiring link) or failed",
        response: { 200: DataExportStatusSchema, ...errors },
      },
    },
    async (request) => service.status(currentUserId(request)),
  );

  app.post(
    '/api/profile/data_export',
    {
      preHandler: requireUser,
      config: { rateLimit: { max: 10, timeWindow: 3600_000 } },
      schema: {
        tags: ['profile'],
        summary: 'Prepare an archive of everything the app holds about the user (once a day); 202',
        response: { 202: DataExportSchema, ...errors },
      },
    },
    async (request, reply) => reply.code(202).send(await service.request(currentUserId(request), request.ip)),
  );

  app.get(
    '/api/profile/data_export/:id/download',
    {
      config: { rateLimit: { max: 30, timeWindow: 60_000 } },
      schema: {
        tags: ['profile'],
        summary: 'The archive (ZIP) through its signed link, until it expires; 404 otherwise',
        params: z.object({ id: z.uuid() }),
        querystring: DataExportDownloadQuerySchema,
        response: {
          200: z.any().describe('the ZIP file'),
          404: ApiErrorSchema,
          400: ApiErrorSchema,
          429: ApiErrorSchema,
        },
      },
    },
    async (request, reply) => {
      const { stream, size, filename } = await service.download(
        request.params.id,
        request.query.exp,
        request.query.sig,
      );
      return reply
        .header('content-type', 'application/zip')
        .header('content-length', String(size))
        .header('content-disposition', `attachment; filename="${filename}"`)
        .header('cache-control', 'private, no-store')
        .header('referrer-policy', 'no-referrer')
        .send(stream);
    },
  );
};
