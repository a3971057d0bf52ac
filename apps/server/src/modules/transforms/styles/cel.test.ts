import sharp from 'sharp';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { makeTestPhoto } from '../../../../test/fixtures/transform-photo.js';
import { toRaster, type Raster } from './raster.js';
import { renderRaster } from './index.js';

/**
 * The cel styles judged on real photos (docs/transform.md "Styles"): the anime style is a
 * bright cel picture — flat areas of a few colours with outlines — never a dark posterisation.
 */
const faces = (name: string) => readFileSync(new URL(`../../../../test/fixtures/faces/${name}`, import.meta.url));
const PHOTOS: [string, () => Promise<Buffer>][] = [
  ['the drawn test photo', () => makeTestPhoto(240, 300)],
  ['Grace Hopper (a dark portrait)', async () => faces('grace-hopper-usn.jpg')],
  ['the astronaut', async () => faces('astronaut-nasa.png')],
  ['the cameraman (grey levels)', async () => faces('cameraman.png')],
  ['the coffee cup', async () => faces('coffee-cc0.png')],
];
const SIDE = 256;

/** The photo as the engine sees it (upright, at most SIDE px, RGB). */
const asRaster = (photo: Buffer) =>
  toRaster(
    sharp(photo)
      .rotate()
      .resize(SIDE, SIDE, { fit: 'inside', withoutEnlargement: true })
      .removeAlpha()
      .toColourspace('srgb'),
  );

const lumaAt = (r: Raster, i: number) =>
  0.299 * r.data[3 * i]! + 0.587 * r.data[3 * i + 1]! + 0.114 * r.data[3 * i + 2]!;

function meanLuma(r: Raster): number {
  let sum = 0;
  for (let i = 0; i < r.width * r.height; i++) sum += lumaAt(r, i);
  return sum / (r.width * r.height);
}

/** Gradient magnitude of the luminance at each pixel (central differences). */
function edges(r: Raster): Float32Array {
  const out = new Float32Array(r.width * r.height);
  for (let y = 1; y < r.height - 1; y++) {
    for (let x = 1; x < r.width - 1; x++) {
      const i = y * r.width + x;
      const gx = lumaAt(r, i + 1) - lumaAt(r, i - 1);
      const gy = lumaAt(r, i + r.width) - lumaAt(r, i - r.width);
      out[i] = Math.hypot(gx, gy);
    }
  }
  return out;
}

describe('the anime style is a bright cel picture', () => {
  it.each(PHOTOS)(
    'on %s: never darker, a bounded palette, outlines along the edges',
    async (_name, load) => {
      const photo = await load();
      const src = await asRaster(photo);
      const out = await renderRaster(photo, 'anime', SIDE);
      expect(out.channels).toBe(3);
      expect([out.width, out.height]).toEqual([src.width, src.height]);

      // Brightness: at least the photo's mean luminance.
      expect(meanLuma(out)).toBeGreaterThanOrEqual(meanLuma(src));

      // Palette: flat colours, at most 16 and their 16 darker ink shades.
      const colours = new Set<number>();
      for (let i = 0; i < out.width * out.height; i++)
        colours.add((out.data[3 * i]! << 16) | (out.data[3 * i + 1]! << 8) | out.data[3 * i + 2]!);
      expect(colours.size).toBeLessThanOrEqual(32);
      expect(colours.size).toBeGreaterThanOrEqual(4);

      // Outlines: dark pixels (under a third of the brightest within 2 px) on at least 0.5 % of
      // the picture, lying where the photo has edges (their mean gradient well above the mean).
      const gradient = edges(src);
      let meanGradient = 0;
      for (const g of gradient) meanGradient += g;
      meanGradient /= gradient.length;
      let lines = 0;
      let lineGradient = 0;
      for (let y = 2; y < out.height - 2; y++) {
        for (let x = 2; x < out.width - 2; x++) {
          const i = y * out.width + x;
          let brightest = 0;
          for (let dy = -2; dy <= 2; dy++)
            for (let dx = -2; dx <= 2; dx++) brightest = Math.max(brightest, lumaAt(out, i + dy * out.width + dx));
          if (lumaAt(out, i) < brightest / 3) {
            lines++;
            lineGradient += Math.max(
              gradient[i]!,
              gradient[i - 1]!,
              gradient[i + 1]!,
              gradient[i - out.width]!,
              gradient[i + out.width]!,
            );
          }
        }
      }
      expect(lines / (out.width * out.height)).toBeGreaterThan(0.005);
      expect(lineGradient / lines).toBeGreaterThan(2 * meanGradient);
    },
    60_000,
  );

  it('runs its pixel loops off the event loop (the loop keeps turning during a transform)', async () => {
    const photo = await makeTestPhoto(800, 1000);
    let ticks = 0;
    let longest = 0;
    let last = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
      ticks++;
    }, 5);
    await renderRaster(photo, 'anime');
    clearInterval(timer);
    expect(ticks).toBeGreaterThan(5);
    // Only small pieces run on the loop (copies, messages): no pause near the transform's length.
    expect(longest).toBeLessThan(250);
  }, 60_000);
});

describe('the other styles drawn on the cel smoothing', () => {
  it.each(['comic', 'watercolour', 'oil'] as const)(
    '%s is never darker than the photo',
    async (style) => {
      for (const [name, load] of PHOTOS.slice(0, 3)) {
        const photo = await load();
        const out = await renderRaster(photo, style, SIDE);
        expect(meanLuma(out), name).toBeGreaterThanOrEqual(meanLuma(await asRaster(photo)));
      }
    },
    60_000,
  );
});
