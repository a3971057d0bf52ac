import { randomBytes, randomInt } from 'node:crypto';
import { DEFAULT_LOCALE, MessageKind, toLocale, UNBLUR_COST } from '@reverie/shared';
import type { Database } from '../../db/client.js';
import { AppError, notFound } from '../../lib/errors.js';
import { translate } from '../../lib/i18n.js';
import type { MediaUrls } from '../../lib/media-urls.js';
import type { ServiceLog } from '../../lib/logger.js';
import type { ImageProvider } from '../../providers/images/index.js';
import type { MediaStorage } from '../../providers/storage/storage.js';
import { debitDesires, hasPremium, readBalance } from '../billing/index.js';
import { makeBlurredPreview, normalizePicture } from './blur.js';
import { isPictureRequest } from './picture-request.js';
import {
  findBotLook,
  findOwnedChat,
  findOwnedMessage,
  insertPictureMessage,
  listGallery,
  markUnblurred,
  recentPictureKeys,
} from './pictures.repository.js';

/** What the chats module passes to `reply` (it calls the service structurally). */
export interface PictureReplyArgs {
  chatId: string;
  userId: string;
  botId: string;
  /** The user message that asked for the picture. */
  replyTo: string;
  locale: string;
}

export interface PictureServiceDeps {
  db: Database;
  storage: MediaStorage;
  urls: MediaUrls;
  /** Null: the character's gallery only. */
  images: ImageProvider | null;
  log: Pick<ServiceLog, 'warn'>;
  /** How long a generated picture may take before the gallery is used instead. */
  imageTimeoutMs?: number;
}

/**
 * A short caption for a picture the character sends, saved in the user's language (the
 * texts are `pictures.captions.*` in the locale files; the web app shows a known caption
 * in the reader's current language, see apps/web/src/lib/picture-captions.ts).
 */
export const PICTURE_CAPTION_KEYS = ['just_for_you', 'here_i_am', 'took_for_you', 'little_something'] as const;

/** How many of the chat's last pictures a gallery picture should not repeat. */
const RECENT_PICTURES = 20;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const randomName = () => randomBytes(16).toString('hex');

/**
 * Pictures in chat (issue 7): the character's picture reply and unblurring.
 *
 * Storage layout (docs/pictures.md): what the user sees lives under `chats/<user id>/` (the
 * owner may load it with their token, anyone else only with a signed URL); a blurred
 * picture's original lives under `originals/<user id>/` with another random name, which is
 * only ever served with a signed URL — and that URL is only handed out after unblurring.
 */
export class PictureService {
  constructor(private readonly deps: PictureServiceDeps) {}

  isPictureRequest(text: string): boolean {
    return isPictureRequest(text);
  }

  /**
   * Inserts the character's picture answering `replyTo` and returns the message id:
   * premium users get the picture (kind 2), everyone else a blurred preview (kind 3) whose
   * original is kept private until unblurred.
   */
  async reply(args: PictureReplyArgs): Promise<string> {
    const { db, storage } = this.deps;
    const chat = await findOwnedChat(db, args.chatId, args.userId, args.botId);
    const bot = await findBotLook(db, args.botId);
    if (!chat || !bot) throw notFound();
    const premium = await hasPremium(db, args.userId);

    // 1. The picture: generated when a provider is configured, else (or when it fails) the gallery's.
    let generated: Buffer | null = null;
    if (this.deps.images) {
      try {
        const image = await this.deps.images.generate(
          { name: bot.name, age: bot.age, description: bot.description, tags: bot.tags },
          { signal: AbortSignal.timeout(this.deps.imageTimeoutMs ?? 120_000) },
        );
        generated = await normalizePicture(image.data);
      } catch (error) {
        this.deps.log.warn(
          { err: error, provider: this.deps.images.name, botId: bot.id },
          'image provider failed; sending a gallery picture',
        );
      }
    }
    const gallery = generated ? null : await this.pickGalleryPicture(args.chatId, bot, args.userId);

    // 2. What the user sees, and the private original of a blurred picture.
    const owner = args.userId;
    let kind: 2 | 3;
    let mediaKey: string;
    let originalKey: string | null = null;
    if (premium) {
      kind = MessageKind.Image;
      if (gallery) mediaKey = gallery.key;
      else {
        mediaKey = `chats/${owner}/${randomName()}.webp`;
        await storage.put(mediaKey, generated!, 'image/webp');
      }
    } else {
      kind = MessageKind.BlurImage;
      let original = generated;
      if (!original) {
        const file = await storage.get(gallery!.key);
        if (!file) throw new AppError('no_pictures', { status: 409, detail: 'The picture is missing from storage' });
        original = await normalizePicture(file.data);
      }
      // The original's name records which gallery picture it copies (for variety), nothing else.
      originalKey = `originals/${owner}/${randomName()}${gallery?.id ? `-${gallery.id}` : ''}.webp`;
      mediaKey = `chats/${owner}/${randomName()}.webp`;
      await storage.put(originalKey, original, 'image/webp');
      await storage.put(mediaKey, await makeBlurredPreview(original), 'image/webp');
    }

    const locale = toLocale(args.locale) ?? DEFAULT_LOCALE;
    return insertPictureMessage(db, {
      chatId: args.chatId,
      userId: args.userId,
      replyTo: args.replyTo,
      kind,
      text: translate(locale, `pictures.captions.${PICTURE_CAPTION_KEYS[randomInt(PICTURE_CAPTION_KEYS.length)]!}`),
      mediaKey,
      originalKey,
    });
  }

  /**
   * A gallery picture not among the chat's recent ones (else the one sent longest ago); the avatar
   * when there is no gallery. Explicit pictures held for review (docs/moderation.md) are sent to
   * their author only.
   */
  private async pickGalleryPicture(
    chatId: string,
    bot: NonNullable<Awaited<ReturnType<typeof findBotLook>>>,
    viewerId: string,
  ): Promise<{ id: string | null; key: string }> {
    const held = !bot.isOfficial && bot.picturesReviewedAt === null && bot.authorId !== viewerId;
    const gallery = (await listGallery(this.deps.db, bot.id)).filter((picture) => !(held && picture.explicit));
    const avatarKey = held && bot.avatarExplicit ? null : bot.avatarKey;
    if (gallery.length === 0) {
      if (avatarKey) return { id: null, key: avatarKey };
      throw new AppError('no_pictures', { status: 409, detail: 'This character has no pictures' });
    }
    const recent = await recentPictureKeys(this.deps.db, chatId, RECENT_PICTURES);
    const lastSent = (picture: { id: string; mediaKey: string }) =>
      recent.findIndex(
        (m) =>
          m.mediaKey === picture.mediaKey ||
          Boolean(m.originalKey?.endsWith(`-${picture.id}.webp`)) ||
          Boolean(m.mediaKey?.endsWith(`-${picture.id}.webp`)),
      );
    const unsent = gallery.filter((picture) => lastSent(picture) === -1);
    const chosen = unsent.length
      ? unsent[randomInt(unsent.length)]!
      : gallery.reduce((a, b) => (lastSent(b) > lastSent(a) ? b : a));
    return { id: chosen.id, key: chosen.mediaKey };
  }

  /**
   * Unblurs the user's blurred picture: 3 desires through the ledger (idempotent per user
   * and message, so the same picture never costs twice, even when asked concurrently), free
   * for premium; from then on the message shows the original.
   */
  async unblur(userId: string, messageId: string): Promise<{ img_url: string; num_tokens: number }> {
    const { db, urls } = this.deps;
    if (!UUID.test(messageId)) throw notFound();
    const message = await findOwnedMessage(db, messageId, userId);
    if (!message || message.role !== 'bot' || !message.mediaKey) throw notFound();
    const original = message.originalKey;
    const alreadyUnblurred = original !== null && message.kind === MessageKind.Image && message.mediaKey === original;
    if (!original || (message.kind !== MessageKind.BlurImage && !alreadyUnblurred)) {
      throw new AppError('not_blurred', { status: 409, detail: 'This picture is not blurred' });
    }
    let balance: number | null = null;
    if (!alreadyUnblurred && !(await hasPremium(db, userId))) {
      try {
        balance = (
          await debitDesires(db, userId, UNBLUR_COST, {
            reason: 'spend',
            reference: `unblur:${messageId}`,
            idempotencyKey: `unblur:${userId}:${messageId}`,
          })
        ).balance;
      } catch (error) {
        if (error instanceof AppError && error.code === 'insufficient_desires') {
          throw new AppError('not_enough_desires', { status: 402, detail: 'not enough desires' });
        }
        throw error;
      }
    }
    if (!alreadyUnblurred) {
      await markUnblurred(db, messageId, userId, original);
      // The preview is not needed any more; a failure here only leaves a file behind.
      if (message.mediaKey !== original) await this.deps.storage.delete(message.mediaKey).catch(() => undefined);
    }
    return {
      img_url: urls.url(original, { signed: true })!,
      num_tokens: balance ?? (await readBalance(db, userId)),
    };
  }
}
