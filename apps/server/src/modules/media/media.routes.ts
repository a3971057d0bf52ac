import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApiErrorSchema, PICTURE_WIDTHS, type PictureWidth } from '@reverie/shared';
import { AppError, notFound } from '../../lib/errors.js';
import { isNotModified, rangeOf } from './http-file.js';
import type { MediaService } from './media.service.js';

/**
 * `GET /api/media/{key}`: a file from media storage, only to whoever may see it
 * (`MediaService.open`).
 *
 * Files are streamed from storage (never read whole into memory) with `Accept-Ranges:
 * bytes` — one byte range is a 206 (an `<audio>` element seeks with it), a range past the end
 * a 416 — and validators: `ETag` and `Last-Modified`, with `If-None-Match` /
 * `If-Modified-Since` answered 304. A character's picture with `?w=256` or `?w=512` is its
 * copy that many pixels across in WebP (the catalogue cards' `srcset`), made once and kept.
 */
export const mediaRoutes: FastifyPluginAsyncZod<{ service: MediaService }> = async (app, { service }) => {
  // GET and HEAD in one route: Fastify's automatic HEAD route would read the whole stream and
  // answer no Content-Length.
  app.route({
    method: ['GET', 'HEAD'],
    url: '/api/media/*',
    schema: {
      tags: ['media'],
      summary: 'A media file (byte ranges, ETag and Last-Modified validators)',
      querystring: z.object({
        exp: z.string().max(20).optional(),
        sig: z.string().max(100).optional(),
        w: z
          .enum(PICTURE_WIDTHS.map(String) as [string, ...string[]])
          .optional()
          .describe('a character picture at this width, as WebP'),
      }),
      response: {
        200: z.any().describe('the file'),
        206: z.any().describe('the requested byte range of the file'),
        304: z.any().describe('not modified: the copy the client holds is current'),
        404: ApiErrorSchema,
        416: ApiErrorSchema,
      },
    },
    handler: async (request, reply) => {
      const {
        key: servedKey,
        file,
        cacheControl,
      } = await service.open({
        key: (request.params as { '*': string })['*'],
        exp: request.query.exp,
        sig: request.query.sig,
        width: request.query.w ? (Number(request.query.w) as PictureWidth) : undefined,
        userId: request.userId ?? null,
        role: request.userRole,
      });
      const validators = {
        etag: file.etag,
        'last-modified': file.lastModified.toUTCString(),
        'cache-control': cacheControl,
        'accept-ranges': 'bytes',
      };
      if (isNotModified(request.headers as Record<string, string | undefined>, file)) {
        return reply.code(304).headers(validators).send();
      }
      const asked = rangeOf(request.headers as Record<string, string | undefined>, file);
      if (asked.kind === 'unsatisfiable') {
        throw new AppError('range_not_satisfiable', {
          status: 416,
          headers: { 'content-range': `bytes */${file.size}`, 'accept-ranges': 'bytes' },
        });
      }
      const range = asked.kind === 'partial' ? asked.range : undefined;
      // Opened before any header is set: a file deleted meanwhile is a plain 404.
      const stream = request.method === 'HEAD' ? null : await service.stream(servedKey, range);
      if (!stream && request.method !== 'HEAD') throw notFound();
      reply
        .headers(validators)
        .header('content-type', file.contentType)
        .header('x-content-type-options', 'nosniff')
        .header('content-length', String(range ? range.end - range.start + 1 : file.size));
      if (range) reply.code(206).header('content-range', `bytes ${range.start}-${range.end}/${file.size}`);
      return reply.send(stream ?? undefined);
    },
  });
};
