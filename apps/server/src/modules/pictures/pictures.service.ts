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
  claimPictureSend,
  findBotLook,
  findOwnedChat,
  findOwnedMessage,
  insertPictureMessage,
  listPrivatePictures,
  markUnblurred,
  releasePictureSend,
  sentPictureIds,
  type PictureSpeaker,
} from './pictures.repository.js';

/** What the chats module passes to `reply` (it calls the service structurally). */
export interface PictureReplyArgs {
  chatId: string;
  userId: string;
  botId: string;
  /** The user message that asked for the picture. */
  replyTo: string;
  locale: string;
  /**
   * A scene of several people (docs/groups.md): the picture is kept blurred for everyone, and
   * each person unblurs it for themselves (their own desires; premium free).
   */
  shared?: boolean;
  /** A group chat (docs/groups.md): the character who sends it, kept as the message's speaker; `botId` is hers. */
  speaker?: PictureSpeaker | null;
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
  /**
   * Group scenes (the chats module, docs/groups.md): the chat owner of a message the user may
   * see as a person of its scene, and whether the scene has several people; null otherwise.
   */
  sceneAccess?: (userId: string, messageId: string) => Promise<{ ownerId: string; shared: boolean } | null>;
}

/**
 * A short caption for a picture the character sends, saved in the user's language (the
 * texts are `pictures.captions.*` in the locale files; the web app shows a known caption
 * in the reader's current language, see apps/web/src/lib/picture-captions.ts).
 */
export const PICTURE_CAPTION_KEYS = ['just_for_you', 'here_i_am', 'took_for_you', 'little_something'] as const;

type BotLook = NonNullable<Awaited<ReturnType<typeof findBotLook>>>;
/** A private picture of the gallery chosen for the user. */
type GalleryPick = { id: string; key: string };

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
   * original is kept private until unblurred. From the gallery she sends her private pictures
   * only (never one of her page), each at most once to a user; with none left to send (or none
   * at all) she says so in the user's language instead — a text message, nothing to unblur.
   */
  async reply(args: PictureReplyArgs): Promise<string> {
    const { db } = this.deps;
    const chat = await findOwnedChat(db, args.chatId, args.userId, args.botId);
    const bot = await findBotLook(db, args.botId);
    if (!chat || !bot) throw notFound();
    const locale = toLocale(args.locale) ?? DEFAULT_LOCALE;
    const insert = (kind: 1 | 2 | 3, text: string, mediaKey: string | null, originalKey: string | null) =>
      insertPictureMessage(db, {
        chatId: args.chatId,
        userId: args.userId,
        replyTo: args.replyTo,
        kind,
        text,
        mediaKey,
        originalKey,
        speaker: args.speaker ?? null,
      });

    // 1. The picture: generated when a provider is configured, else (or when it fails) a private one of the gallery.
    const generated = await this.generate(bot);
    let gallery: GalleryPick | null = null;
    if (!generated) {
      const pick = await this.pickPrivatePicture(bot, args.userId);
      if (pick === 'none_left' || pick === 'none_to_send') {
        return insert(MessageKind.Text, translate(locale, `pictures.${pick}`, { name: bot.name }), null, null);
      }
      gallery = pick;
    }
    const caption = translate(
      locale,
      `pictures.captions.${PICTURE_CAPTION_KEYS[randomInt(PICTURE_CAPTION_KEYS.length)]!}`,
    );
    try {
      const stored = await this.store(
        args.userId,
        !args.shared && (await hasPremium(db, args.userId)),
        generated,
        gallery,
      );
      return await insert(stored.kind, caption, stored.mediaKey, stored.originalKey);
    } catch (error) {
      // Not sent after all: the picture stays unseen for this user.
      if (gallery) await releasePictureSend(db, args.userId, gallery.id).catch(() => undefined);
      throw error;
    }
  }

  /** A picture from the image provider, normalised; null without one or when it fails (logged). */
  private async generate(bot: BotLook): Promise<Buffer | null> {
    if (!this.deps.images) return null;
    try {
      const image = await this.deps.images.generate(
        { name: bot.name, age: bot.age, description: bot.description, tags: bot.tags },
        { signal: AbortSignal.timeout(this.deps.imageTimeoutMs ?? 120_000) },
      );
      return await normalizePicture(image.data);
    } catch (error) {
      this.deps.log.warn(
        { err: error, provider: this.deps.images.name, botId: bot.id },
        'image provider failed; sending a gallery picture',
      );
      return null;
    }
  }

  /**
   * What the user is shown: premium users the picture (a gallery picture under its own key,
   * which the API only ever signs for them; a generated one under `chats/<user>/`); others a
   * blurred preview under `chats/<user>/` and the original under `originals/<user>/`, with
   * independent random names.
   */
  private async store(
    owner: string,
    premium: boolean,
    generated: Buffer | null,
    gallery: GalleryPick | null,
  ): Promise<{ kind: 2 | 3; mediaKey: string; originalKey: string | null }> {
    const { storage } = this.deps;
    if (premium) {
      if (gallery) return { kind: MessageKind.Image, mediaKey: gallery.key, originalKey: null };
      const mediaKey = `chats/${owner}/${randomName()}.webp`;
      await storage.put(mediaKey, generated!, 'image/webp');
      return { kind: MessageKind.Image, mediaKey, originalKey: null };
    }
    let original = generated;
    if (!original) {
      const file = await storage.get(gallery!.key);
      if (!file) throw new AppError('no_pictures', { status: 409, detail: 'The picture is missing from storage' });
      original = await normalizePicture(file.data);
    }
    // The original's name records which gallery picture it copies, nothing else.
    const originalKey = `originals/${owner}/${randomName()}${gallery ? `-${gallery.id}` : ''}.webp`;
    const mediaKey = `chats/${owner}/${randomName()}.webp`;
    await storage.put(originalKey, original, 'image/webp');
    await storage.put(mediaKey, await makeBlurredPreview(original), 'image/webp');
    return { kind: MessageKind.BlurImage, mediaKey, originalKey };
  }

  /**
   * One of the character's private pictures that the user was never sent, chosen at random and
   * recorded as sent (two requests at once never take the same one); `none_left` when the user
   * has had them all, `none_to_send` when she has no private picture. Her public pictures (avatar, page)
   * are never sent: a paid picture is never one anyone can see for free. Explicit pictures held
   * for review (docs/moderation.md) are sent to their author only.
   */
  private async pickPrivatePicture(bot: BotLook, userId: string): Promise<GalleryPick | 'none_left' | 'none_to_send'> {
    const { db } = this.deps;
    const held = !bot.isOfficial && bot.picturesReviewedAt === null && bot.authorId !== userId;
    const pictures = (await listPrivatePictures(db, bot.id)).filter((picture) => !(held && picture.explicit));
    if (pictures.length === 0) return 'none_to_send';
    const sent = await sentPictureIds(db, userId, bot.id);
    const unseen = pictures.filter((picture) => !sent.has(picture.id));
    let missing = false;
    while (unseen.length > 0) {
      const [chosen] = unseen.splice(randomInt(unseen.length), 1);
      // A picture whose file is not there (yet: the seed draws them after the start) is skipped.
      if (!(await this.deps.storage.exists(chosen!.mediaKey))) missing = true;
      else if (await claimPictureSend(db, userId, bot.id, chosen!.id)) return { id: chosen!.id, key: chosen!.mediaKey };
    }
    // Unseen pictures remain, but none can be read now: no promise that there are none left.
    if (missing) throw new AppError('no_pictures', { status: 409, detail: 'The pictures are missing from storage' });
    return 'none_left';
  }

  /**
   * Unblurs the user's blurred picture: 3 desires through the ledger (idempotent per user
   * and message, so the same picture never costs twice, even when asked concurrently), free
   * for premium; from then on the message shows the original.
   */
  async unblur(userId: string, messageId: string): Promise<{ img_url: string; num_tokens: number }> {
    const { db, urls } = this.deps;
    if (!UUID.test(messageId)) throw notFound();
    // In a scene of several people each person unblurs for themselves: the row stays blurred.
    const scene = this.deps.sceneAccess ? await this.deps.sceneAccess(userId, messageId) : null;
    const message =
      (await findOwnedMessage(db, messageId, userId)) ??
      (scene ? await findOwnedMessage(db, messageId, scene.ownerId) : null);
    if (!message || message.role !== 'bot' || !message.mediaKey) throw notFound();
    if (scene?.shared) return this.unblurForOne(userId, message);
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

  /** A scene's picture unblurred for one person: charged once per person (premium free), the row left blurred for the others. */
  private async unblurForOne(userId: string, message: { id: string; originalKey: string | null; kind: number }) {
    const { db, urls } = this.deps;
    const original = message.originalKey;
    if (!original) throw new AppError('not_blurred', { status: 409, detail: 'This picture is not blurred' });
    let balance: number | null = null;
    if (!(await hasPremium(db, userId))) {
      try {
        balance = (
          await debitDesires(db, userId, UNBLUR_COST, {
            reason: 'spend',
            reference: `unblur:${message.id}`,
            idempotencyKey: `unblur:${userId}:${message.id}`,
          })
        ).balance;
      } catch (error) {
        if (error instanceof AppError && error.code === 'insufficient_desires')
          throw new AppError('not_enough_desires', { status: 402, detail: 'not enough desires' });
        throw error;
      }
    }
    return { img_url: urls.url(original, { signed: true })!, num_tokens: balance ?? (await readBalance(db, userId)) };
  }
}
