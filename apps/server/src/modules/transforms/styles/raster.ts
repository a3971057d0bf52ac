import sharp, { type Blend, type Sharp } from 'sharp';

/**
 * An uncompressed picture between two sharp pipelines. Every step below is one libvips
 * pipeline (sharp applies the operations of one pipeline in a fixed order, so steps whose
 * order matters are separate); the pixels are only touched by libvips on libuv's threads,
 * never by a JavaScript loop, so a transform does not block the event loop.
 */
export interface Raster {
  data: Buffer;
  width: number;
  height: number;
  channels: 1 | 3 | 4;
}

const rawOptions = (r: Raster) => ({ raw: { width: r.width, height: r.height, channels: r.channels } });

/** A sharp pipeline reading the raster. */
export const open = (r: Raster): Sharp => sharp(r.data, rawOptions(r));

/** Runs a pipeline to a raster. */
export async function toRaster(pipeline: Sharp): Promise<Raster> {
  const { data, info } = await pipeline.raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels as Raster['channels'] };
}

/** One step: the pipeline `edit` makes of the raster. */
export const step = (r: Raster, edit: (s: Sharp) => Sharp): Promise<Raster> => toRaster(edit(open(r)));

/** Luminance, one channel. */
export const gray = (r: Raster) => step(r, (s) => s.removeAlpha().grayscale());

/** The mean luminance (0–255, Rec. 601 weights) of an RGB or one-channel raster. */
export async function meanLuminance(r: Raster): Promise<number> {
  const { channels } = await open(r).stats();
  if (r.channels === 1) return channels[0]!.mean;
  return 0.299 * channels[0]!.mean + 0.587 * channels[1]!.mean + 0.114 * channels[2]!.mean;
}

/** A one-channel raster as three channels (for blending with colour). */
export const toRgb = (r: Raster) => (r.channels === 3 ? Promise.resolve(r) : step(r, (s) => s.toColourspace('srgb')));

/** `layer` blended onto `base` with a blend mode (both the same size). */
export async function blend(base: Raster, layer: Raster, mode: Blend): Promise<Raster> {
  // Compositing adds an alpha channel: dropped, so that rasters stay opaque.
  return step(base, (s) => s.composite([{ input: layer.data, ...rawOptions(layer), blend: mode }]).removeAlpha());
}

/**
 * A layer's strength: pulls it towards the blend mode's neutral value (255 for multiply, 0
 * for screen and add, 128 for overlay and soft light) so that blending it has `amount` of
 * its full effect.
 */
export const fade = (layer: Raster, amount: number, neutral: number) =>
  step(layer, (s) => s.linear(amount, neutral * (1 - amount)));

/** A solid colour the raster's size. */
export function solid(like: Raster, colour: { r: number; g: number; b: number }): Promise<Raster> {
  return toRaster(
    sharp({ create: { width: like.width, height: like.height, channels: 3, background: colour } }).removeAlpha(),
  );
}

/** Gaussian noise around 128 (film grain, paper fibres), blurred by `sigma` when given. */
export async function noise(like: Raster, sigmaNoise: number, blurSigma = 0, channels: 1 | 3 = 3): Promise<Raster> {
  const created = await toRaster(
    sharp({
      create: {
        width: like.width,
        height: like.height,
        channels: 3,
        background: '#808080',
        noise: { type: 'gaussian', mean: 128, sigma: sigmaNoise },
      },
    }),
  );
  const grain = channels === 1 ? await gray(created) : created;
  return blurSigma >= 0.3 ? step(grain, (s) => s.blur(blurSigma)) : grain;
}

/**
 * Low-frequency noise: a small noise picture enlarged (pigment pooling in watercolour,
 * uneven paper), `cells` across the longer side.
 */
export async function cloud(like: Raster, cells: number, sigmaNoise: number): Promise<Raster> {
  const long = Math.max(like.width, like.height);
  const w = Math.max(2, Math.round((cells * like.width) / long));
  const h = Math.max(2, Math.round((cells * like.height) / long));
  const small = await toRaster(
    sharp({
      create: {
        width: w,
        height: h,
        channels: 3,
        background: '#808080',
        noise: { type: 'gaussian', mean: 128, sigma: sigmaNoise },
      },
    }),
  );
  const grayed = await gray(small);
  return step(grayed, (s) => s.resize(like.width, like.height, { fit: 'fill', kernel: 'cubic' }));
}

/** Draws an SVG (procedural textures: halftone dots, hatching, vignettes) the raster's size. */
export async function svgLayer(like: Raster, body: string, background = 'white'): Promise<Raster> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${like.width}" height="${like.height}"><rect width="100%" height="100%" fill="${background}"/>${body}</svg>`;
  return toRaster(sharp(Buffer.from(svg)).flatten({ background }).removeAlpha().toColourspace('srgb'));
}

/** Edge-preserving smoothing: median filters (which keep edges) then a light blur, `passes` times. */
export async function smooth(r: Raster, medianSize: number, passes: number, blurSigma = 0): Promise<Raster> {
  let out = r;
  const size = Math.max(3, medianSize | 1);
  for (let i = 0; i < passes; i++) out = await step(out, (s) => s.median(size));
  return blurSigma >= 0.3 ? step(out, (s) => s.blur(blurSigma)) : out;
}

/**
 * Edge strength from a Sobel convolution: |Gx| + |Gy| of the luminance (one channel, 0 flat,
 * 255 a strong edge), `gain` times.
 */
export async function sobel(luma: Raster, gain = 1): Promise<Raster> {
  const kernelX = [-1, 0, 1, -2, 0, 2, -1, 0, 1];
  const kernelY = [-1, -2, -1, 0, 0, 0, 1, 2, 1];
  const mid = { r: 128, g: 128, b: 128 };
  const half = await gray(await solid(luma, mid));
  const along = async (kernel: number[]) => {
    const signed = await step(luma, (s) => s.convolve({ width: 3, height: 3, kernel, scale: 2 / gain, offset: 128 }));
    return blend(signed, half, 'difference');
  };
  const [gx, gy] = await Promise.all([along(kernelX), along(kernelY)]);
  return gray(await blend(await toRgb(gx), await toRgb(gy), 'add'));
}

/**
 * Ink lines (black on white): edges above `threshold` on the smoothed luminance, thickened by
 * `thickness` pixels when above 1.
 */
export async function inkLines(luma: Raster, options: { gain: number; threshold: number; thickness?: number }) {
  const edges = await sobel(luma, options.gain);
  let lines = await step(edges, (s) => s.threshold(options.threshold, { grayscale: true }));
  if ((options.thickness ?? 1) > 1) lines = await step(lines, (s) => s.dilate(Math.round(options.thickness! - 1)));
  // A little softness so the lines are drawn, not pixelated.
  return step(await step(lines, (s) => s.negate({ alpha: false })), (s) => s.blur(0.6));
}

/**
 * Pencil: the luminance dodged by its blurred negative — flat areas go white, edges and
 * shading stay as graphite strokes.
 */
export async function pencilDodge(luma: Raster, sigma: number): Promise<Raster> {
  sigma = Math.max(0.3, sigma);
  const negative = await step(luma, (s) => s.negate({ alpha: false }));
  const blurred = await step(negative, (s) => s.blur(sigma));
  return gray(await blend(await toRgb(luma), await toRgb(blurred), 'colour-dodge'));
}

/**
 * A gradient map: each luminance band gets a colour (shadows to highlights). Bands are cut
 * at `stops[i].at` (0–255); `softness` blurs the cuts (0: hard posterised bands).
 */
export async function gradientMap(
  luma: Raster,
  stops: { at: number; colour: { r: number; g: number; b: number } }[],
  softness: number,
): Promise<Raster> {
  const l = luma.channels === 1 ? luma : await gray(luma);
  let out = await solid(l, stops[0]!.colour);
  for (const stop of stops.slice(1)) {
    // threshold answers three channels: one is the alpha mask.
    let mask = await gray(await step(l, (s) => s.threshold(stop.at, { grayscale: true })));
    if (mask.channels !== 1) throw new Error(`mask has ${mask.channels} channels`);
    if (softness >= 0.3) mask = await gray(await step(mask, (s) => s.blur(softness)));
    const colour = await solid(l, stop.colour);
    const layer = await step(colour, (s) =>
      s.joinChannel(mask.data, { raw: { width: mask.width, height: mask.height, channels: 1 } }),
    );
    out = await toRaster(
      open(out)
        .composite([
          { input: layer.data, raw: { width: layer.width, height: layer.height, channels: 4 }, blend: 'over' },
        ])
        .removeAlpha(),
    );
  }
  return out;
}

/** A colour from `#rrggbb`. */
export const hex = (value: string) => ({
  r: parseInt(value.slice(1, 3), 16),
  g: parseInt(value.slice(3, 5), 16),
  b: parseInt(value.slice(5, 7), 16),
});
