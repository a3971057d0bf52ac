import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { TRANSFORM_STYLES, type TransformStyle } from '@reverie/shared';
import { makeTestPhoto } from '../../../../test/fixtures/transform-photo.js';
import { renderStyle } from './index.js';

/** Mean absolute difference per channel value (0–255) of two pictures at the same small size. */
async function meanDifference(a: Buffer, b: Buffer): Promise<number> {
  const read = (input: Buffer) =>
    sharp(input).resize(96, 120, { fit: 'fill' }).removeAlpha().toColourspace('srgb').raw().toBuffer();
  const [x, y] = await Promise.all([read(a), read(b)]);
  let sum = 0;
  for (let i = 0; i < x.length; i += 1) sum += Math.abs(x[i]! - y[i]!);
  return sum / x.length;
}

let photo: Buffer;
const results = new Map<TransformStyle, Buffer>();

beforeAll(async () => {
  photo = await makeTestPhoto(240, 300);
  for (const style of TRANSFORM_STYLES) results.set(style, (await renderStyle(photo, style, { maxSide: 300 })).data);
}, 60_000);

describe('the embedded style engine', () => {
  it('offers the eight styles', () => {
    expect(TRANSFORM_STYLES).toEqual([
      'anime',
      'comic',
      'watercolour',
      'pencil',
      'oil',
      'pop_art',
      'cyberpunk',
      'vintage',
    ]);
  });

  it.each(TRANSFORM_STYLES)(
    '%s gives a valid WebP the photo’s size that differs clearly from the photo',
    async (style) => {
      const result = results.get(style)!;
      const meta = await sharp(result).metadata();
      expect(meta.format).toBe('webp');
      expect([meta.width, meta.height]).toEqual([240, 300]);
      // Not a colour filter: on average every channel value moved by more than 12 of 255.
      expect(await meanDifference(photo, result)).toBeGreaterThan(12);
    },
  );

  it('gives every style a look of its own', async () => {
    const styles = [...TRANSFORM_STYLES];
    for (let i = 0; i < styles.length; i += 1) {
      for (let j = i + 1; j < styles.length; j += 1) {
        const difference = await meanDifference(results.get(styles[i]!)!, results.get(styles[j]!)!);
        expect(difference, `${styles[i]} vs ${styles[j]}`).toBeGreaterThan(8);
      }
    }
  });

  it('makes at most 1024 px on the longer side and never enlarges', async () => {
    const large = await renderStyle(await makeTestPhoto(1600, 1200), 'vintage');
    expect([large.width, large.height]).toEqual([1024, 768]);
    const small = await renderStyle(await makeTestPhoto(200, 150), 'vintage');
    expect([small.width, small.height]).toEqual([200, 150]);
  });

  it('turns a photo upright by its EXIF orientation', async () => {
    const rotated = await sharp(await makeTestPhoto(200, 100))
      .withMetadata({ orientation: 6 })
      .jpeg()
      .toBuffer();
    const out = await renderStyle(rotated, 'vintage');
    expect([out.width, out.height]).toEqual([100, 200]);
  });
});
