import sharp from 'sharp';
import { MAX_INPUT_PIXELS } from '../../lib/images.js';

const ORIGINAL_MAX_SIDE = 1024;
const PREVIEW_WIDTH = 384;
/** The preview keeps this many pixels across: colours and rough shapes, nothing more. */
const PREVIEW_DETAIL = 12;

/** A picture as it is kept: upright, at most 1024 px, WebP, every metadata field stripped. */
export async function normalizePicture(input: Buffer): Promise<Buffer> {
  return sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, animated: false })
    .rotate()
    .resize({ width: ORIGINAL_MAX_SIDE, height: ORIGINAL_MAX_SIDE, fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 88 })
    .toBuffer();
}

/**
 * The blurred preview of a picture: first shrunk to a handful of pixels (what is thrown away
 * there cannot be recovered from the preview by any sharpening), then enlarged and softened
 * so it looks like frosted glass. A new file, with no metadata of the original.
 */
export async function makeBlurredPreview(input: Buffer): Promise<Buffer> {
  const image = sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, animated: false }).rotate();
  const meta = await image.metadata();
  const [width, height] =
    meta.orientation && meta.orientation >= 5
      ? [meta.height ?? 1, meta.width ?? 1]
      : [meta.width ?? 1, meta.height ?? 1];
  const ratio = height / Math.max(1, width);
  const tinyWidth = ratio >= 1 ? PREVIEW_DETAIL : Math.max(1, Math.round(PREVIEW_DETAIL / ratio));
  const tiny = await image
    .resize({ width: tinyWidth, height: Math.max(1, Math.round(tinyWidth * ratio)), fit: 'fill' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const previewHeight = Math.max(1, Math.round(PREVIEW_WIDTH * ratio));
  return sharp(tiny.data, { raw: { width: tiny.info.width, height: tiny.info.height, channels: tiny.info.channels } })
    .resize({ width: PREVIEW_WIDTH, height: previewHeight, fit: 'fill', kernel: 'cubic' })
    .blur(6)
    .webp({ quality: 60 })
    .toBuffer();
}
