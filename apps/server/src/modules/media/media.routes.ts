import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import sharp from 'sharp';
import { ApiErrorSchema, PICTURE_WIDTHS, type PictureWidth } from '@reverie/shared';
import type { Database } from '../../db/client.js';
import { AppError, notFound } from '../../lib/errors.js';
import { MAX_INPUT_PIXELS } from '../../lib/images.js';
import type { MediaUrls } from '../../lib/media-urls.js';
import { isValidMediaKey, type MediaStorage } from '../../providers/storage/storage.js';
import { findBotWithPicture, originalOfBlurredKey, storeBlurredCopy } from '../bots/index.js';
import { findPublishedPost } from '../blog/index.js';
import { isNotModified, rangeOf } from './http-file.js';

/** Pictures of listed characters: a day in any cache, then revalidated by ETag. */
const PUBLIC_MAX_AGE_S = 86_400;
/** Private media asked for with the owner's token: an hour in the browser's cache only. */
const PRIVATE_MAX_AGE_S = 3600;

const RESIZABLE = /\.(png|jpe?g|webp)$/i;

/** A picture variant's suffix (`<key>.w256.webp`). */
const VARIANT_SUFFIX = /\.w\d+\.webp$/;

/** Blurred copies being made now, by the original's key. */
const blurring = new Map<string, Promise<void>>();

/**
 * An explicit picture's blurred copy (`<key>.blurred.webp`): stored with the upload; made here
 * from the original when missing (a picture marked explicit later, by an administrator).
 */
async function ensureBlurredCopy(storage: MediaStorage, originalKey: string, blurredKey: string): Promise<void> {
  if (await storage.stat(blurredKey)) return;
  const running = blurring.get(originalKey);
  if (running) return running;
  const task = (async () => {
    const source = await storage.get(originalKey);
    if (source) await storeBlurredCopy(storage, originalKey, source.data);
  })().finally(() => blurring.delete(originalKey));
  blurring.set(originalKey, task);
  return task;
}

/** Variants being made now, by key: one sharp run per variant however many ask at once. */
const making = new Map<string, Promise<string | null>>();

/**
 * The key of a character picture's copy `width` px across in WebP (`<key>.w<width>.webp`, beside
 * it: deleting the character's files deletes it too), made on first request and again when the
 * picture is newer; null when the picture is not there.
 */
function pictureVariant(storage: MediaStorage, key: string, width: PictureWidth): Promise<string | null> {
  const variantKey = `${key}.w${width}.webp`;
  const running = making.get(variantKey);
  if (running) return running;
  const task = (async () => {
    const [original, variant] = await Promise.all([storage.stat(key), storage.stat(variantKey)]);
    if (!original) return null;
    if (variant && variant.lastModified.getTime() >= original.lastModified.getTime()) return variantKey;
    const source = await storage.get(key);
    if (!source) return null;
    const data = await sharp(source.data, { limitInputPixels: MAX_INPUT_PIXELS, animated: false })
      .rotate()
      .resize({ width, withoutEnlargement: true })
      .webp({ quality: 76 })
      .toBuffer();
    await storage.put(variantKey, data, 'image/webp');
    return variantKey;
  })().finally(() => making.delete(variantKey));
  making.set(variantKey, task);
  return task;
}

/**
 * `GET /api/media/{key}`: a file from media storage, only to whoever may see it. Pictures
 * of listed characters are public; others need a valid signature (from the API's URLs) or
 * their author's token. Unknown owners answer 404, never 403, so nothing leaks.
 *
 * Files are streamed from storage (never read whole into memory) with `Accept-Ranges:
 * bytes` — one byte range is a 206 (an `<audio>` element seeks with it), a range past the end
 * a 416 — and validators: `ETag` and `Last-Modified`, with `If-None-Match` /
 * `If-Modified-Since` answered 304. A character's picture with `?w=256` or `?w=512` is its
 * copy that many pixels across in WebP (the catalogue cards' `srcset`), made once and kept.
 */
export const mediaRoutes: FastifyPluginAsyncZod<{ db: Database; storage: MediaStorage; urls: MediaUrls }> = async (
  app,
  { db, storage, urls },
) => {
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
      const key = (request.params as { '*': string })['*'];
      if (!isValidMediaKey(key)) throw notFound();
      const signed = urls.verify(key, request.query.exp, request.query.sig);
      let isPublic = false;
      const [scope, ownerId] = key.split('/');
      if (scope === 'bots' && ownerId && /^[0-9a-f-]{36}$/i.test(ownerId)) {
        // An explicit picture is public only as its blurred copy (PRODUCT.md §6): the original
        // needs a signature (a logged-in viewer once reviewed), the author or an administrator
        // (docs/moderation.md). The character and the picture's explicit flag come in one query.
        const blurredOf = originalOfBlurredKey(key);
        const baseKey = blurredOf ?? key.replace(VARIANT_SUFFIX, '');
        const found = await findBotWithPicture(db, ownerId, baseKey);
        if (!found) throw notFound();
        const { bot } = found;
        const held = !blurredOf && found.explicit;
        isPublic = bot.visibility === 'public' && bot.reviewState === 'approved' && !held;
        const isAuthor = Boolean(request.userId && bot.authorId === request.userId);
        if (!isPublic && !signed && !isAuthor && request.userRole !== 'admin') throw notFound();
        // Made only for whoever may see it (an unknown caller makes no file).
        if (blurredOf) {
          await ensureBlurredCopy(storage, blurredOf, `${blurredOf}.blurred.webp`).catch(() => {});
        }
      } else if (scope === 'chats') {
        // Pictures and voice messages in a user's chats: the owner, or a signed URL. A blurred
        // picture's original lives under originals/ and is served with a signed URL only.
        const isOwner = Boolean(request.userId && ownerId === request.userId);
        if (!signed && !isOwner) throw notFound();
      } else if (scope === 'blog' && ownerId) {
        // A blog post's cover (admin console): public once the post is published.
        isPublic = Boolean(await findPublishedPost(db, ownerId));
        if (!isPublic && !signed && request.userRole !== 'admin') throw notFound();
      } else if (!signed) {
        throw notFound();
      }
      // A character's picture at card size: its WebP copy (the original when it cannot be made).
      let servedKey = key;
      if (request.query.w && scope === 'bots' && RESIZABLE.test(key)) {
        const width = Number(request.query.w) as PictureWidth;
        servedKey = (await pictureVariant(storage, key, width).catch(() => null)) ?? key;
      }
      const file = await storage.stat(servedKey);
      if (!file) throw notFound();

      // A signed URL stops working at its expiry: no cache keeps it longer.
      const untilExpiry = signed ? Math.max(0, Number(request.query.exp) - Math.floor(Date.now() / 1000)) : Infinity;
      const cacheControl = isPublic
        ? `public, max-age=${PUBLIC_MAX_AGE_S}`
        : `private, max-age=${Math.min(untilExpiry, signed ? PUBLIC_MAX_AGE_S : PRIVATE_MAX_AGE_S)}`;
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
      const stream = request.method === 'HEAD' ? null : await storage.stream(servedKey, range);
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
