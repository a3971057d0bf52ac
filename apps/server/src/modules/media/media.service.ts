import type { Readable } from 'node:stream';
import sharp from 'sharp';
import type { PictureWidth } from '@reverie/shared';
import type { Database } from '../../db/client.js';
import { notFound } from '../../lib/errors.js';
import { MAX_INPUT_PIXELS } from '../../lib/images.js';
import type { MediaUrls } from '../../lib/media-urls.js';
import {
  isValidMediaKey,
  type ByteRange,
  type MediaFileInfo,
  type MediaStorage,
} from '../../providers/storage/storage.js';
import { originalOfBlurredKey } from '../bots/index.js';
import { findPublishedPost } from '../blog/index.js';

/** Pictures of listed characters: a day in any cache, then revalidated by ETag. */
const PUBLIC_MAX_AGE_S = 86_400;
/** Private media asked for with the owner's token: an hour in the browser's cache only. */
const PRIVATE_MAX_AGE_S = 3600;

const RESIZABLE = /\.(png|jpe?g|webp)$/i;

/** A picture variant's suffix (`<key>.w256.webp`). */
const VARIANT_SUFFIX = /\.w\d+\.webp$/;

/** What the media module needs of a character to decide who may see its picture. */
export interface MediaCharacter {
  visibility: string;
  reviewState: string;
  authorId: string | null;
}

/** What the media module needs of the bots module (its `BotsService`). */
export interface MediaCharacters {
  /**
   * A character, whether this picture of it was judged explicit and whether it is private (sent
   * in chat only); null when the character is unknown.
   */
  findBotWithPicture(
    botId: string,
    pictureKey: string,
  ): Promise<{ bot: MediaCharacter; explicit: boolean; private: boolean } | null>;
  /** Stores an explicit picture's blurred copy beside it. */
  storeBlurredCopy(key: string, data: Buffer): Promise<void>;
}

export interface MediaServiceDeps {
  db: Database;
  storage: MediaStorage;
  urls: MediaUrls;
  /** The bots module: a character, its picture's explicit flag, the blurred copy's store. */
  bots: MediaCharacters;
}

/** Who asks for a file, and with what. */
export interface MediaRequest {
  key: string;
  /** The signature's expiry and value, from a URL the API gave. */
  exp?: string;
  sig?: string;
  /** A character picture at this width, as WebP. */
  width?: PictureWidth;
  userId: string | null;
  role: 'user' | 'admin' | null;
}

/** A file the asker may see: the key to serve (a variant perhaps), its stat and its caching. */
export interface MediaFile {
  key: string;
  file: MediaFileInfo;
  cacheControl: string;
}

/**
 * Who may see which media file (docs/pictures.md): pictures of listed characters are public;
 * others need a valid signature (from the API's URLs) or their author's token. Unknown owners
 * answer 404, never 403, so nothing leaks. Makes an explicit picture's blurred copy and a
 * character picture's width variants on first request.
 */
export class MediaService {
  /** Blurred copies being made now, by the original's key. */
  private readonly blurring = new Map<string, Promise<void>>();
  /** Variants being made now, by key: one sharp run per variant however many ask at once. */
  private readonly making = new Map<string, Promise<string | null>>();

  constructor(private readonly deps: MediaServiceDeps) {}

  /** The file to serve for the request; 404 when it is not there or not the asker's to see. */
  async open(request: MediaRequest): Promise<MediaFile> {
    const { key } = request;
    const { storage, urls } = this.deps;
    if (!isValidMediaKey(key)) throw notFound();
    const signed = urls.verify(key, request.exp, request.sig);
    let isPublic = false;
    const [scope, ownerId] = key.split('/');
    if (scope === 'bots' && ownerId && /^[0-9a-f-]{36}$/i.test(ownerId)) {
      // An explicit picture is public only as its blurred copy (PRODUCT.md §6): the original
      // needs a signature (a logged-in viewer once reviewed), the author or an administrator
      // (docs/moderation.md). A private picture (sent in chat only) is never public, in any
      // copy or size: a signature (the API signs it only for whoever was sent it clear), the
      // author or an administrator. The character and the picture's flags come in one query.
      const blurredOf = originalOfBlurredKey(key);
      const baseKey = blurredOf ?? key.replace(VARIANT_SUFFIX, '');
      const found = await this.deps.bots.findBotWithPicture(ownerId, baseKey);
      if (!found) throw notFound();
      const { bot } = found;
      const held = (!blurredOf && found.explicit) || found.private;
      isPublic = bot.visibility === 'public' && bot.reviewState === 'approved' && !held;
      const isAuthor = Boolean(request.userId && bot.authorId === request.userId);
      if (!isPublic && !signed && !isAuthor && request.role !== 'admin') throw notFound();
      // Made only for whoever may see it (an unknown caller makes no file).
      if (blurredOf) {
        await this.ensureBlurredCopy(blurredOf, `${blurredOf}.blurred.webp`).catch(() => {});
      }
    } else if (scope === 'chats') {
      // Pictures and voice messages in a user's chats: the owner, or a signed URL. A blurred
      // picture's original lives under originals/ and is served with a signed URL only.
      const isOwner = Boolean(request.userId && ownerId === request.userId);
      if (!signed && !isOwner) throw notFound();
    } else if (scope === 'blog' && ownerId) {
      // A blog post's cover (admin console): public once the post is published.
      isPublic = Boolean(await findPublishedPost(this.deps.db, ownerId));
      if (!isPublic && !signed && request.role !== 'admin') throw notFound();
    } else if (!signed) {
      throw notFound();
    }
    // A character's picture at card size: its WebP copy (the original when it cannot be made).
    let servedKey = key;
    if (request.width && scope === 'bots' && RESIZABLE.test(key)) {
      servedKey = (await this.pictureVariant(key, request.width).catch(() => null)) ?? key;
    }
    const file = await storage.stat(servedKey);
    if (!file) throw notFound();
    // A signed URL stops working at its expiry: no cache keeps it longer.
    const untilExpiry = signed ? Math.max(0, Number(request.exp) - Math.floor(Date.now() / 1000)) : Infinity;
    const cacheControl = isPublic
      ? `public, max-age=${PUBLIC_MAX_AGE_S}`
      : `private, max-age=${Math.min(untilExpiry, signed ? PUBLIC_MAX_AGE_S : PRIVATE_MAX_AGE_S)}`;
    return { key: servedKey, file, cacheControl };
  }

  /** The file's bytes (a range of them), streamed from storage; null when it is gone. */
  stream(key: string, range?: ByteRange): Promise<Readable | null> {
    return this.deps.storage.stream(key, range);
  }

  /**
   * An explicit picture's blurred copy (`<key>.blurred.webp`): stored with the upload; made here
   * from the original when missing (a picture marked explicit later, by an administrator).
   */
  private async ensureBlurredCopy(originalKey: string, blurredKey: string): Promise<void> {
    const { storage } = this.deps;
    if (await storage.stat(blurredKey)) return;
    const running = this.blurring.get(originalKey);
    if (running) return running;
    const task = (async () => {
      const source = await storage.get(originalKey);
      if (source) await this.deps.bots.storeBlurredCopy(originalKey, source.data);
    })().finally(() => this.blurring.delete(originalKey));
    this.blurring.set(originalKey, task);
    return task;
  }

  /**
   * The key of a character picture's copy `width` px across in WebP (`<key>.w<width>.webp`, beside
   * it: deleting the character's files deletes it too), made on first request and again when the
   * picture is newer; null when the picture is not there.
   */
  private pictureVariant(key: string, width: PictureWidth): Promise<string | null> {
    const { storage } = this.deps;
    const variantKey = `${key}.w${width}.webp`;
    const running = this.making.get(variantKey);
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
    })().finally(() => this.making.delete(variantKey));
    this.making.set(variantKey, task);
    return task;
  }
}
