import { AppError } from '../../lib/errors.js';
import type { ImageJudgement, ImageModeration } from '../../providers/image-moderation/index.js';
import type { MediaStorage } from '../../providers/storage/index.js';
import { makeBlurredPreview } from '../pictures/index.js';

/** Where the judgements are logged (pino's shape). */
export interface PictureLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
}

/**
 * The blurred copy of an explicit character picture sits beside it: `<key>.blurred.webp`
 * (deleting the character's files deletes it too). It is a new file made from a dozen pixels
 * across (`makeBlurredPreview`): nothing of the original can be recovered from it, and its URL
 * names no way to the original (API.md).
 */
export const blurredKeyOf = (key: string) => `${key}.blurred.webp`;

/** Every file of a character (avatar, gallery, their resized and blurred copies) is under this prefix. */
export const characterFilePrefix = (botId: string) => `bots/${botId}`;

/** A blurred copy's key, or its `?w=` variant's (`<key>.blurred.webp.w256.webp`). */
const BLURRED_KEY = /^(.+)\.blurred\.webp(?:\.w\d+\.webp)?$/;

/** The original's key of a blurred copy's key; null for any other key. */
export function originalOfBlurredKey(key: string): string | null {
  return BLURRED_KEY.exec(key)?.[1] ?? null;
}

/**
 * Judges an uploaded picture (docs/moderation.md): a face judged under the minimum age →
 * 422 "Inappropriate content", nothing stored; a judge that cannot answer → 503 (the picture is
 * never taken unjudged). Answers whether the picture is explicit, and the judgement.
 */
export async function judgeUploadedPicture(
  imageModeration: ImageModeration,
  bytes: Buffer,
  log?: PictureLog,
): Promise<{ explicit: boolean; judgement: ImageJudgement }> {
  let judgement: ImageJudgement;
  try {
    judgement = await imageModeration.judge(bytes);
  } catch (error) {
    log?.warn({ err: error }, 'image moderation failed; the picture is refused for now');
    throw new AppError('service_unavailable', { status: 503, headers: { 'retry-after': '10' } });
  }
  if (judgement.verdict !== 'ok') {
    // What was judged, never the picture nor who sent it.
    log?.info(
      {
        verdict: judgement.verdict,
        judge: judgement.judge,
        ages: judgement.faces.map((face) => face.age),
        porn: judgement.nudity.porn,
        hentai: judgement.nudity.hentai,
        remote: judgement.remote?.categories,
        ms: judgement.ms,
      },
      judgement.verdict === 'minor' ? 'picture refused: judged to show a minor' : 'picture marked explicit',
    );
  }
  if (judgement.verdict === 'minor') throw new AppError('inappropriate_content', { status: 422 });
  return { explicit: judgement.verdict === 'explicit', judgement };
}

/** Stores an explicit picture's blurred copy beside it (`blurredKeyOf`). */
export async function storeBlurredCopy(storage: MediaStorage, key: string, data: Buffer): Promise<void> {
  await storage.put(blurredKeyOf(key), await makeBlurredPreview(data), 'image/webp');
}

/**
 * The check of a picture that may be neither a minor's nor explicit (a style transform's
 * photo, PRODUCT.md §1): either verdict is refused with 422 "Inappropriate content".
 */
export async function refuseUnsafePicture(
  imageModeration: ImageModeration,
  bytes: Buffer,
  log?: PictureLog,
): Promise<void> {
  const { explicit } = await judgeUploadedPicture(imageModeration, bytes, log);
  if (explicit) throw new AppError('inappropriate_content', { status: 422 });
}
