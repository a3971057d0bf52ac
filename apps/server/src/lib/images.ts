import sharp, { type Metadata } from 'sharp';
import { IMAGE_MAX_BYTES } from '@reverie/shared';
import { AppError } from './errors.js';

/** Larger pictures are refused before decoding (a decompression bomb guard). */
export const MAX_INPUT_PIXELS = 40_000_000;
const ACCEPTED_FORMATS = new Set(['jpeg', 'png', 'webp', 'gif', 'avif', 'heif']);
const OUTPUT_MAX_SIDE = 1024;

/**
 * Checks an uploaded picture by its content (never its name), then re-encodes it as WebP
 * with every metadata field stripped. Refuses: over 5 MB (413), not a raster image or an
 * SVG (415), larger than MAX_INPUT_PIXELS (413), truncated or corrupt (400).
 */
export async function sanitizeImage(input: Buffer): Promise<{ data: Buffer; contentType: string }> {
  if (input.length > IMAGE_MAX_BYTES) throw new AppError('payload_too_large', { status: 413 });
  let meta: Metadata;
  try {
    meta = await sharp(input, { limitInputPixels: false }).metadata();
  } catch {
    throw new AppError('unsupported_media_type', { status: 415 });
  }
  if (!meta.format || !ACCEPTED_FORMATS.has(meta.format)) throw new AppError('unsupported_media_type', { status: 415 });
  if (!meta.width || !meta.height || meta.width * meta.height > MAX_INPUT_PIXELS) {
    throw new AppError('payload_too_large', { status: 413, detail: 'The picture has too many pixels' });
  }
  try {
    const data = await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'truncated', animated: false })
      .rotate()
      .resize({ width: OUTPUT_MAX_SIDE, height: OUTPUT_MAX_SIDE, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 85 })
      .toBuffer();
    return { data, contentType: 'image/webp' };
  } catch {
    throw new AppError('invalid_image', { status: 400, detail: 'The picture is damaged or incomplete' });
  }
}
