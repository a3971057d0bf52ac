import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApiErrorSchema } from '@reverie/shared';
import type { Database } from '../../db/client.js';
import { notFound } from '../../lib/errors.js';
import type { MediaUrls } from '../../lib/media-urls.js';
import { isValidMediaKey, type MediaStorage } from '../../providers/storage/storage.js';
import { findBotById } from '../bots/index.js';

/**
 * `GET /api/media/{key}`: a file from media storage, only to whoever may see it. Pictures
 * of listed characters are public; others need a valid signature (from the API's URLs) or
 * their author's token. Unknown owners answer 404, never 403, so nothing leaks.
 */
export const mediaRoutes: FastifyPluginAsyncZod<{ db: Database; storage: MediaStorage; urls: MediaUrls }> = async (
  app,
  { db, storage, urls },
) => {
  app.get(
    '/api/media/*',
    {
      schema: {
        tags: ['media'],
        summary: 'A media file',
        querystring: z.object({ exp: z.string().max(20).optional(), sig: z.string().max(100).optional() }),
        response: { 200: z.any().describe('the file'), 404: ApiErrorSchema },
      },
    },
    async (request, reply) => {
      const key = (request.params as { '*': string })['*'];
      if (!isValidMediaKey(key)) throw notFound();
      const signed = urls.verify(key, request.query.exp, request.query.sig);
      let isPublic = false;
      const [scope, ownerId] = key.split('/');
      if (scope === 'bots' && ownerId && /^[0-9a-f-]{36}$/i.test(ownerId)) {
        const bot = await findBotById(db, ownerId);
        if (!bot) throw notFound();
        isPublic = bot.visibility === 'public' && bot.reviewState === 'approved';
        const isAuthor = Boolean(request.userId && bot.authorId === request.userId);
        if (!isPublic && !signed && !isAuthor && request.userRole !== 'admin') throw notFound();
      } else if (scope === 'chats') {
        // Pictures in a user's chats: the owner, or a signed URL. A blurred picture's
        // original lives under originals/ and is served with a signed URL only.
        const isOwner = Boolean(request.userId && ownerId === request.userId);
        if (!signed && !isOwner) throw notFound();
      } else if (!signed) {
        throw notFound();
      }
      const file = await storage.get(key);
      if (!file) throw notFound();
      return reply
        .header('content-type', file.contentType)
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', isPublic ? 'public, max-age=86400' : 'private, max-age=3600')
        .send(file.data);
    },
  );
};
