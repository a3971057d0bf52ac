import sharp from 'sharp';
import { TRANSFORM_MAX_SIDE, type TransformStyle } from '@reverie/shared';
import { MAX_INPUT_PIXELS } from '../../../lib/images.js';
import { celThread, type CelOptions } from './cel-thread.js';
import {
  blend,
  cloud,
  fade,
  gradientMap,
  gray,
  hex,
  inkLines,
  meanLuminance,
  noise,
  open,
  pencilDodge,
  smooth,
  sobel,
  step,
  svgLayer,
  toRaster,
  toRgb,
  type Raster,
} from './raster.js';

/**
 * The embedded style engine (docs/transform.md "Styles"): eight looks made with sharp
 * (libvips: Sobel edges, dodge blends, procedural textures — noise, SVG patterns) and, for
 * anime, comic, watercolour and oil, cel shading in a worker thread (cel.mjs: edge-preserving
 * smoothing, k-means palette, outlines, never darker than the photo). `k` scales every
 * size-dependent setting (filter sizes, blur radii, dot spacing) to the picture, so a 192 px
 * preview looks like the 1024 px result.
 */
type StyleRenderer = (src: Raster, k: number) => Promise<Raster>;

const odd = (n: number) => Math.max(3, Math.round(n) | 1);
/** A blur radius sharp accepts (0.3 at least). */
const sigma = (n: number) => Math.max(0.3, n);

/** Dots on a grid (halftone), dark on white, `spacing` px apart, at 45°. */
const halftone = (r: Raster, spacing: number, radius: number, colour = '#000') =>
  svgLayer(
    r,
    `<defs><pattern id="d" width="${spacing}" height="${spacing}" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><circle cx="${spacing / 2}" cy="${spacing / 2}" r="${radius}" fill="${colour}"/></pattern></defs><rect width="100%" height="100%" fill="url(#d)"/>`,
  );

/** Darker edges and corners (a lens, a print), as a multiply layer. */
const vignette = (r: Raster, strength: number, colour = '#000') =>
  svgLayer(
    r,
    `<defs><radialGradient id="v" cx="50%" cy="50%" r="75%"><stop offset="55%" stop-color="${colour}" stop-opacity="0"/><stop offset="100%" stop-color="${colour}" stop-opacity="${strength}"/></radialGradient></defs><rect width="100%" height="100%" fill="url(#v)"/>`,
  );

/** Halftone dots only where the picture is dark (screened away by the light areas). */
async function shadowDots(src: Raster, k: number, strength: number, lift: number): Promise<Raster> {
  const dots = await halftone(src, Math.max(3, 7 * k), Math.max(0.8, 2.1 * k));
  const luma = await toRgb(await step(await gray(src), (s) => s.linear(1.25, lift)));
  return fade(await blend(dots, luma, 'screen'), strength, 255);
}

/**
 * A picture never darker than the photo: when its mean luminance is below the photo's, every
 * value moves towards white by the share that makes up the difference (libvips statistics).
 */
async function noDarker(photo: Raster, out: Raster): Promise<Raster> {
  const [before, after] = await Promise.all([meanLuminance(photo), meanLuminance(out)]);
  if (after >= before || after >= 254) return out;
  const t = Math.min(1, (before - after) / (255 - after));
  return step(out, (s) => s.linear(1 - t, 255 * t));
}

/** Cel shading (cel.mjs, in its worker thread) at the picture's scale `k`. */
const celShade = (src: Raster, k: number, options: Partial<CelOptions>) =>
  celThread.cel(src, {
    colours: 16,
    sigmaS: 50 * k,
    sigmaR: 0.4,
    iterations: 3,
    lineSmoothing: 10 * k,
    lineSigmaR: 0.2,
    lineSigma: Math.max(0.9, 1.4 * k),
    lineThreshold: 0.016,
    minLine: Math.max(3, Math.round(40 * k * k)),
    ink: 0.2,
    lift: 1.35,
    saturation: 1.35,
    chroma: 2,
    speckle: Math.max(1, Math.round(2 * k)),
    brighter: 4,
    seed: 1,
    ...options,
  });

const anime: StyleRenderer = async (src, k) => celShade(src, k, {});

const comic: StyleRenderer = async (src, k) => {
  // Fewer, bolder colours and thick black ink; halftone dots in the shadows.
  const inked = await celShade(src, k, {
    colours: 6,
    saturation: 1.7,
    lift: 1.2,
    ink: 0,
    lineSmoothing: 16 * k,
    lineSigma: Math.max(1, 1.8 * k),
    lineThreshold: 0.02,
    brighter: 6,
  });
  return noDarker(src, await blend(inked, await shadowDots(inked, k, 0.9, 30), 'multiply'));
};

const watercolour: StyleRenderer = async (src, k) => {
  // Washes: strongly smoothed flat areas of colour, lighter than the photo, no outlines.
  const washed = await celShade(src, k, {
    colours: 20,
    sigmaS: 50 * k,
    sigmaR: 0.3,
    lineThreshold: 1,
    lift: 1.6,
    saturation: 1.15,
    speckle: Math.max(1, Math.round(3 * k)),
    brighter: 12,
  });
  const bleeding = await step(washed, (s) =>
    s
      .blur(sigma(1.6 * k))
      .modulate({ saturation: 1.2 })
      .linear(0.82, 44),
  );
  // Pigment gathers at the edges of each wash.
  const edges = await step(await sobel(await gray(washed), 1.4), (s) =>
    s.blur(sigma(1.1 * k)).negate({ alpha: false }),
  );
  const darkened = await blend(bleeding, await fade(await toRgb(edges), 0.55, 255), 'multiply');
  // Uneven pigment and the grain of cold-pressed paper.
  const pooling = await fade(await toRgb(await cloud(src, 9, 60)), 0.35, 128);
  const paper = await fade(await noise(src, 45, 0.7 * k, 1).then(toRgb), 0.5, 128);
  return blend(await blend(darkened, pooling, 'soft-light'), paper, 'overlay');
};

const pencil: StyleRenderer = async (src, k) => {
  const luma = await step(await gray(src), (s) => s.linear(1.1, -8));
  const sketch = await pencilDodge(luma, 7 * k);
  // Graphite is darker than a dodge alone: multiply the sketch by itself, then cross-hatching in the shadows.
  const deeper = await blend(await toRgb(sketch), await toRgb(sketch), 'multiply');
  const spacing = Math.max(3, 6 * k);
  const hatch = await svgLayer(
    src,
    `<defs><pattern id="h" width="${spacing}" height="${spacing}" patternUnits="userSpaceOnUse" patternTransform="rotate(35)"><line x1="0" y1="0" x2="0" y2="${spacing}" stroke="#555" stroke-width="${Math.max(0.6, k)}"/></pattern></defs><rect width="100%" height="100%" fill="url(#h)"/>`,
  );
  const shadowHatch = await blend(hatch, await toRgb(await step(luma, (s) => s.linear(1.6, 40))), 'screen');
  const drawn = await blend(deeper, await fade(shadowHatch, 0.6, 255), 'multiply');
  // Off-white paper with fibres; graphite's faint blue-grey.
  const paper = await step(await noise(src, 35, 0.8 * k, 1).then(toRgb), (s) =>
    s.linear([0.25, 0.25, 0.22], [196, 192, 180]),
  );
  const onPaper = await blend(drawn, paper, 'multiply');
  return step(onPaper, (s) => s.linear([1.04, 1.04, 1.06], [4, 4, 2]));
};

const oil: StyleRenderer = async (src, k) => {
  // Paint: smoothed, rich colours (28), no outlines; then brush marks, relief and canvas.
  const rich = await celShade(src, k, {
    colours: 28,
    sigmaS: 24 * k,
    sigmaR: 0.22,
    lineThreshold: 1,
    lift: 1.2,
    saturation: 1.35,
    brighter: 2,
  });
  const daubed = await step(rich, (s) => s.median(odd(3 * k)));
  // Impasto: the paint's relief lit from the top left (an emboss of its luminance).
  const relief = await step(await gray(await step(daubed, (s) => s.blur(sigma(1.2 * k)))), (s) =>
    s.convolve({ width: 3, height: 3, kernel: [-2, -1, 0, -1, 0, 1, 0, 1, 2], scale: 1, offset: 128 }),
  );
  // Brush strokes: directional streaks of noise along the paint.
  const streaks = await step(await noise(src, 70, 0, 1), (s) =>
    s.convolve({ width: 7, height: 7, kernel: Array.from({ length: 49 }, (_, i) => (i % 8 === 0 ? 1 : 0)), scale: 7 }),
  );
  const brushed = await blend(daubed, await fade(await toRgb(streaks), 0.5, 128), 'soft-light');
  const lit = await blend(brushed, await fade(await toRgb(relief), 0.9, 128), 'overlay');
  // Canvas weave.
  const weave = Math.max(2, 4 * k);
  const canvas = await svgLayer(
    src,
    `<defs><pattern id="c" width="${weave}" height="${weave}" patternUnits="userSpaceOnUse"><rect width="${weave}" height="${weave / 2}" fill="#999"/><rect y="${weave / 2}" width="${weave / 2}" height="${weave / 2}" fill="#bbb"/></pattern></defs><rect width="100%" height="100%" fill="url(#c)"/>`,
    '#808080',
  );
  return step(await blend(lit, await fade(canvas, 0.25, 128), 'overlay'), (s) => s.sharpen({ sigma: 0.8 }));
};

const popArt: StyleRenderer = async (src, k) => {
  // Four panels, each the photo in three flat inks of its own, with Ben-Day dots and outlines.
  const half = await step(src, (s) =>
    s.resize(Math.max(8, Math.round(src.width / 2)), Math.max(8, Math.round(src.height / 2)), { fit: 'fill' }),
  );
  const luma = await step(await gray(await smooth(half, 3 * k, 2)), (s) => s.normalise());
  const palettes = [
    ['#1b1464', '#ff2e88', '#ffe14d'],
    ['#0d3b66', '#3ddc97', '#ff9f1c'],
    ['#4a0d67', '#ff4f4f', '#7ee8fa'],
    ['#002b36', '#f9c80e', '#f86624'],
  ];
  const ink = await toRgb(await inkLines(luma, { gain: 1, threshold: 80 }));
  const panels = await Promise.all(
    palettes.map(async (colours) => {
      const bands = await gradientMap(
        luma,
        [
          { at: 0, colour: hex(colours[0]!) },
          { at: 85, colour: hex(colours[1]!) },
          { at: 165, colour: hex(colours[2]!) },
        ],
        0,
      );
      const dotted = await blend(
        bands,
        await fade(await halftone(bands, Math.max(3, 6 * k), Math.max(0.7, 1.5 * k), '#000'), 0.25, 255),
        'multiply',
      );
      return blend(dotted, ink, 'multiply');
    }),
  );
  const w = half.width;
  const h = half.height;
  return toRaster(
    open({ data: Buffer.alloc(w * 2 * h * 2 * 3, 255), width: w * 2, height: h * 2, channels: 3 }).composite(
      panels.map((panel, i) => ({
        input: panel.data,
        raw: { width: panel.width, height: panel.height, channels: panel.channels },
        left: (i % 2) * w,
        top: Math.floor(i / 2) * h,
      })),
    ),
  ).then((r) => step(r, (s) => s.resize(src.width, src.height, { fit: 'fill' })));
};

const cyberpunk: StyleRenderer = async (src, k) => {
  const luma = await gray(await step(await smooth(src, 5 * k, 1, 1.5 * k), (s) => s.normalise()));
  // Night-city grading: deep indigo shadows, magenta mids, cyan highlights.
  const graded = await gradientMap(
    luma,
    [
      { at: 0, colour: hex('#0a0420') },
      { at: 60, colour: hex('#3a0b6b') },
      { at: 120, colour: hex('#d6249f') },
      { at: 185, colour: hex('#28e7ff') },
      { at: 235, colour: hex('#e8fdff') },
    ],
    3 * k,
  );
  const tinted = await blend(graded, await fade(src, 0.45, 128), 'soft-light');
  // Neon: the edges glow cyan and pink.
  const edges = await toRgb(
    await step(await sobel(await gray(await smooth(src, 3 * k, 1)), 1.3), (s) => s.linear(1.4, -30)),
  );
  const cyan = await step(edges, (s) => s.linear([0.2, 0.9, 1], [0, 0, 0]));
  const pink = await step(edges, (s) => s.linear([1, 0.15, 0.8], [0, 0, 0]));
  const glowWide = await step(pink, (s) => s.blur(sigma(8 * k)));
  const glowNear = await step(cyan, (s) => s.blur(sigma(2 * k)));
  const lit = await blend(
    await blend(await blend(tinted, glowWide, 'screen'), glowNear, 'screen'),
    await fade(cyan, 0.6, 0),
    'screen',
  );
  const lineGap = Math.max(2, Math.round(3 * k));
  const scan = await svgLayer(
    src,
    `<defs><pattern id="s" width="4" height="${lineGap}" patternUnits="userSpaceOnUse"><rect width="4" height="${Math.max(1, lineGap / 3)}" fill="#9a9a9a"/></pattern></defs><rect width="100%" height="100%" fill="url(#s)"/>`,
  );
  return blend(
    await blend(lit, await fade(scan, 0.35, 255), 'multiply'),
    await vignette(src, 0.55, '#05010f'),
    'multiply',
  );
};

const vintage: StyleRenderer = async (src, k) => {
  // Warm, faded film stock: a partial sepia matrix, lifted blacks, softened whites.
  const sepia = await step(src, (s) =>
    s.recomb([
      [0.6 + 0.393 * 0.4, 0.769 * 0.4, 0.189 * 0.4],
      [0.349 * 0.4, 0.6 + 0.686 * 0.4, 0.168 * 0.4],
      [0.272 * 0.4, 0.534 * 0.4, 0.6 + 0.131 * 0.4 - 0.1],
    ]),
  );
  const faded = await step(sepia, (s) =>
    s
      .modulate({ saturation: 0.75 })
      .linear([0.8, 0.78, 0.72], [34, 28, 24])
      .blur(sigma(0.5 * k)),
  );
  const leak = await svgLayer(
    src,
    `<defs><radialGradient id="l" cx="92%" cy="8%" r="55%"><stop offset="0%" stop-color="#ff8a3d" stop-opacity="0.55"/><stop offset="100%" stop-color="#ff8a3d" stop-opacity="0"/></radialGradient></defs><rect width="100%" height="100%" fill="url(#l)"/>`,
    '#000',
  );
  const leaked = await blend(faded, leak, 'screen');
  const grain = await fade(await noise(src, 55, 0.45 * k, 1).then(toRgb), 0.55, 128);
  const grained = await blend(leaked, grain, 'overlay');
  return blend(grained, await vignette(src, 0.65, '#1a0f05'), 'multiply');
};

export const STYLE_RENDERERS: Record<TransformStyle, StyleRenderer> = {
  anime,
  comic,
  watercolour,
  pencil,
  oil,
  pop_art: popArt,
  cyberpunk,
  vintage,
};

export interface StyledImage {
  data: Buffer;
  contentType: 'image/webp';
  width: number;
  height: number;
}

/**
 * The photo (any size sharp reads, up to MAX_INPUT_PIXELS; turned upright by its EXIF
 * orientation) at most `maxSide` px on its longer side (never enlarged), in `style`, as
 * uncompressed pixels.
 */
export async function renderRaster(
  input: Buffer,
  style: TransformStyle,
  maxSide = TRANSFORM_MAX_SIDE,
): Promise<Raster> {
  const src = await toRaster(
    sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, animated: false })
      .rotate()
      .resize({ width: maxSide, height: maxSide, fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .toColourspace('srgb'),
  );
  const k = Math.max(src.width, src.height) / 1024;
  return STYLE_RENDERERS[style](src, Math.max(0.15, k));
}

/** One transform on the embedded engine: `renderRaster` as WebP. */
export async function renderStyle(
  input: Buffer,
  style: TransformStyle,
  options: { maxSide?: number; quality?: number } = {},
): Promise<StyledImage> {
  const out = await renderRaster(input, style, options.maxSide ?? TRANSFORM_MAX_SIDE);
  const { data, info } = await open(out)
    .webp({ quality: options.quality ?? 86 })
    .toBuffer({ resolveWithObject: true });
  return { data, contentType: 'image/webp', width: info.width, height: info.height };
}
