// Cel shading for the embedded style engine (docs/transform.md "Styles"): the pixel loops
// libvips has no operation for. Plain JavaScript, run only in the cel worker thread
// (cel-worker.mjs), never on the server's event loop.
//
//   1. edge-preserving smoothing: the domain transform's recursive filter (Gastal & Oliveira,
//      2011), which flattens skin, sky and fabric but stops at edges;
//   2. a brighter, more saturated tone curve (shadows lifted, never darkened);
//   3. palette quantisation: k-means on a sample of the pixels (k-means++ start, seeded),
//      then every pixel to its nearest colour and a majority filter against speckles;
//   4. outlines: the dark side of a difference of Gaussians of the smoothed luminance
//      (the edges of shapes, not of texture), drawn in a darker shade of the colour under them;
//   5. brightness: the palette is lifted until the picture is at least as bright as the photo.

import { mulberry32 } from '../../../lib/seeded-random.mjs';

const luma = (r, g, b) => 0.299 * r + 0.587 * g + 0.114 * b;

/**
 * How different each pixel is from its left and its upper neighbour (absolute differences of
 * the three channels of `img`, 0–1, summed): where the smoothing below must stop.
 */
export function differences(img, width, height) {
  const n = width * height;
  const dH = new Float32Array(n);
  const dV = new Float32Array(n);
  const diff = (i, j) =>
    Math.abs(img[3 * i] - img[3 * j]) +
    Math.abs(img[3 * i + 1] - img[3 * j + 1]) +
    Math.abs(img[3 * i + 2] - img[3 * j + 2]);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      if (x > 0) dH[i] = diff(i, i - 1);
      if (y > 0) dV[i] = diff(i, i - width);
    }
  }
  return { dH, dV };
}

/**
 * Edge-preserving smoothing, in place on `img` (`channels` channels, 0–1): the domain
 * transform recursive filter, `iterations` horizontal and vertical passes, across the
 * `differences` of the photo. `sigmaS` is the spatial extent in pixels, `sigmaR` the colour
 * difference that counts as an edge.
 */
export function domainTransform(img, channels, width, height, { dH, dV }, sigmaS, sigmaR, iterations) {
  const n = width * height;
  const ratio = sigmaS / sigmaR;
  const weights = new Float32Array(n);
  for (let it = 0; it < iterations; it++) {
    const sigmaH = (sigmaS * Math.sqrt(3) * 2 ** (iterations - it - 1)) / Math.sqrt(4 ** iterations - 1);
    const rate = -Math.SQRT2 / sigmaH;
    for (let i = 0; i < n; i++) weights[i] = Math.exp(rate * (1 + ratio * dH[i]));
    for (let y = 0; y < height; y++) alongRow(img, channels, weights, y * width, width);
    for (let i = 0; i < n; i++) weights[i] = Math.exp(rate * (1 + ratio * dV[i]));
    alongColumns(img, channels, weights, width, height);
  }
}

/** The recursive filter along one row (forwards, then backwards). */
function alongRow(img, c, weights, start, count) {
  for (let i = start + 1; i < start + count; i++) {
    const w = weights[i];
    for (let p = c * i, end = p + c; p < end; p++) img[p] += w * (img[p - c] - img[p]);
  }
  for (let i = start + count - 2; i >= start; i--) {
    const w = weights[i + 1];
    for (let p = c * i, end = p + c; p < end; p++) img[p] += w * (img[p + c] - img[p]);
  }
}

/** The recursive filter down every column and back up, a row at a time (memory in order). */
function alongColumns(img, c, weights, width, height) {
  const rowLength = c * width;
  for (let y = 1; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const w = weights[y * width + x];
      for (let p = y * rowLength + c * x, end = p + c; p < end; p++) img[p] += w * (img[p - rowLength] - img[p]);
    }
  }
  for (let y = height - 2; y >= 0; y--) {
    for (let x = 0; x < width; x++) {
      const w = weights[(y + 1) * width + x];
      for (let p = y * rowLength + c * x, end = p + c; p < end; p++) img[p] += w * (img[p + rowLength] - img[p]);
    }
  }
}

/** A Gaussian blur of one channel, approximated by three box blurs (in place). */
export function gaussian(channel, width, height, sigma) {
  if (sigma < 0.5) return channel;
  // Box sizes whose three passes approximate the Gaussian (Kovesi's "boxes for Gauss").
  const ideal = Math.sqrt((12 * sigma * sigma) / 3 + 1);
  let lower = Math.floor(ideal);
  if (lower % 2 === 0) lower--;
  const upper = lower + 2;
  const m = Math.round((12 * sigma * sigma - 3 * lower * lower - 12 * lower - 9) / (-4 * lower - 4));
  const tmp = new Float32Array(channel.length);
  for (let pass = 0; pass < 3; pass++) {
    const r = ((pass < m ? lower : upper) - 1) / 2;
    boxRows(channel, tmp, width, height, r);
    boxColumns(tmp, channel, width, height, r);
  }
  return channel;
}

/** A running-mean box blur of radius `r` along each row, from `src` to `dst`. */
function boxRows(src, dst, width, height, r) {
  const norm = 1 / (2 * r + 1);
  for (let y = 0; y < height; y++) {
    const base = y * width;
    const at = (x) => src[base + (x < 0 ? 0 : x >= width ? width - 1 : x)];
    let sum = 0;
    for (let x = -r - 1; x < r; x++) sum += at(x);
    for (let x = 0; x < width; x++) {
      sum += at(x + r) - at(x - r - 1);
      dst[base + x] = sum * norm;
    }
  }
}

/** The same down each column, with one running sum per column (memory read in order). */
function boxColumns(src, dst, width, height, r) {
  const norm = 1 / (2 * r + 1);
  const sums = new Float64Array(width);
  const row = (y) => (y < 0 ? 0 : y >= height ? height - 1 : y) * width;
  for (let y = -r - 1; y < r; y++) {
    const base = row(y);
    for (let x = 0; x < width; x++) sums[x] += src[base + x];
  }
  for (let y = 0; y < height; y++) {
    const add = row(y + r);
    const drop = row(y - r - 1);
    const out = y * width;
    for (let x = 0; x < width; x++) {
      sums[x] += src[add + x] - src[drop + x];
      dst[out + x] = sums[x] * norm;
    }
  }
}

/** k-means colours (three channels, 0–1) of about `samples` pixels of `img`: a flat array, `k` × 3. */
export function kMeans(img, n, k, samples, seed) {
  // Seeded: the same photo always gives the same picture.
  const rand = mulberry32(seed);
  const stride = Math.max(1, Math.floor(n / samples));
  const points = [];
  for (let i = Math.floor(rand() * stride); i < n; i += stride) points.push(i);
  const m = points.length;
  const centres = new Float32Array(k * 3);
  const dist = new Float32Array(m).fill(Infinity);
  // k-means++: each next centre far from the ones chosen.
  let chosen = points[Math.floor(rand() * m)];
  for (let c = 0; c < k; c++) {
    centres.set(img.subarray(3 * chosen, 3 * chosen + 3), 3 * c);
    let total = 0;
    for (let p = 0; p < m; p++) {
      const i = points[p];
      const d = sq(img, 3 * i, centres, 3 * c);
      if (d < dist[p]) dist[p] = d;
      total += dist[p];
    }
    let target = rand() * total;
    chosen = points[m - 1];
    for (let p = 0; p < m; p++) {
      target -= dist[p];
      if (target <= 0) {
        chosen = points[p];
        break;
      }
    }
  }
  const sums = new Float64Array(k * 4);
  for (let round = 0; round < 12; round++) {
    sums.fill(0);
    for (let p = 0; p < m; p++) {
      const i = points[p];
      const c = nearest(img, 3 * i, centres, k);
      sums[4 * c] += img[3 * i];
      sums[4 * c + 1] += img[3 * i + 1];
      sums[4 * c + 2] += img[3 * i + 2];
      sums[4 * c + 3] += 1;
    }
    let moved = 0;
    for (let c = 0; c < k; c++) {
      const count = sums[4 * c + 3];
      if (!count) continue;
      for (let ch = 0; ch < 3; ch++) {
        const v = sums[4 * c + ch] / count;
        moved = Math.max(moved, Math.abs(v - centres[3 * c + ch]));
        centres[3 * c + ch] = v;
      }
    }
    if (moved < 0.002) break;
  }
  return centres;
}

function sq(a, i, b, j) {
  const d0 = a[i] - b[j];
  const d1 = a[i + 1] - b[j + 1];
  const d2 = a[i + 2] - b[j + 2];
  return d0 * d0 + d1 * d1 + d2 * d2;
}

/**
 * The colours as the clustering sees them: luminance and two colour differences (YCbCr), the
 * colour weighted `chroma` times, so that a small patch of skin is not merged into a grey.
 */
function features(img, n, chroma) {
  const f = new Float32Array(n * 3);
  for (let i = 0; i < n; i++) {
    const r = img[3 * i];
    const g = img[3 * i + 1];
    const b = img[3 * i + 2];
    const y = luma(r, g, b);
    f[3 * i] = y;
    f[3 * i + 1] = chroma * 0.564 * (b - y);
    f[3 * i + 2] = chroma * 0.713 * (r - y);
  }
  return f;
}

function nearest(img, i, centres, k) {
  let best = 0;
  let bestD = Infinity;
  for (let c = 0; c < k; c++) {
    const d = sq(img, i, centres, 3 * c);
    if (d < bestD) {
      bestD = d;
      best = c;
    }
  }
  return best;
}

/**
 * The most frequent label in each (2r+1)² window (a sliding histogram along each row):
 * removes specks smaller than the window.
 */
function majority(labels, width, height, k, r) {
  if (r < 1) return labels;
  const out = new Uint8Array(labels.length);
  const counts = new Int32Array(k);
  const clampX = (x) => (x < 0 ? 0 : x >= width ? width - 1 : x);
  const clampY = (y) => (y < 0 ? 0 : y >= height ? height - 1 : y);
  const column = (x, y, sign) => {
    for (let dy = -r; dy <= r; dy++) counts[labels[clampY(y + dy) * width + clampX(x)]] += sign;
  };
  for (let y = 0; y < height; y++) {
    counts.fill(0);
    for (let x = -r; x <= r; x++) column(x, y, 1);
    for (let x = 0; x < width; x++) {
      if (x > 0) {
        column(x + r, y, 1);
        column(x - r - 1, y, -1);
      }
      let best = labels[y * width + x];
      for (let c = 0; c < k; c++) if (counts[c] > counts[best]) best = c;
      out[y * width + x] = best;
    }
  }
  return out;
}

/**
 * Drops the specks among the lines: 8-connected groups of line pixels smaller than `min`
 * pixels (grass, gravel, skin pores) are no outlines.
 */
function dropSpecks(line, width, height, min) {
  if (min < 2) return;
  const seen = new Uint8Array(line.length);
  const stack = new Int32Array(line.length);
  const group = [];
  for (let start = 0; start < line.length; start++) {
    if (!line[start] || seen[start]) continue;
    group.length = 0;
    let top = 0;
    stack[top++] = start;
    seen[start] = 1;
    while (top) {
      const i = stack[--top];
      group.push(i);
      const x = i % width;
      const y = (i - x) / width;
      for (let dy = -1; dy <= 1; dy++) {
        const yy = y + dy;
        if (yy < 0 || yy >= height) continue;
        for (let dx = -1; dx <= 1; dx++) {
          const xx = x + dx;
          if (xx < 0 || xx >= width) continue;
          const j = yy * width + xx;
          if (line[j] && !seen[j]) {
            seen[j] = 1;
            stack[top++] = j;
          }
        }
      }
    }
    if (group.length < min) for (const i of group) line[i] = 0;
  }
}

/**
 * The cel-shaded picture of `rgb` (8-bit, three channels), as 8-bit RGB of the same size.
 * Options: `colours` (palette size), `sigmaS`/`sigmaR`/`iterations` (smoothing), `lift` (tone
 * curve exponent, above 1 brightens), `saturation`, `lineSigma` (outline scale, px),
 * `lineThreshold` (how strong an edge gets a line; 1 or more: no lines), `ink` (the line's share of the colour under
 * it: 0 black), `minLine` (smaller groups of line pixels are dropped), `speckle` (majority filter radius, px), `brighter` (the least the mean
 * luminance may rise, 0–255), `seed`.
 */
export function cel(rgb, width, height, o) {
  const n = width * height;
  const img = new Float32Array(n * 3);
  let inputMean = 0;
  for (let i = 0; i < n; i++) {
    img[3 * i] = rgb[3 * i] / 255;
    img[3 * i + 1] = rgb[3 * i + 1] / 255;
    img[3 * i + 2] = rgb[3 * i + 2] / 255;
    inputMean += luma(rgb[3 * i], rgb[3 * i + 1], rgb[3 * i + 2]);
  }
  inputMean /= n;
  const diffs = differences(img, width, height);
  // Outlines from the lightly smoothed luminance (features stay, texture goes): where a
  // difference of Gaussians is strongly negative (the dark side of an edge between two shapes).
  const line = new Uint8Array(n);
  if (o.lineThreshold < 1) {
    const fine = new Float32Array(n);
    for (let i = 0; i < n; i++) fine[i] = luma(img[3 * i], img[3 * i + 1], img[3 * i + 2]);
    domainTransform(fine, 1, width, height, diffs, o.lineSmoothing, o.lineSigmaR, 2);
    const coarse = Float32Array.from(fine);
    gaussian(fine, width, height, o.lineSigma);
    gaussian(coarse, width, height, o.lineSigma * 1.6);
    for (let i = 0; i < n; i++) if (fine[i] - coarse[i] < -o.lineThreshold) line[i] = 1;
    dropSpecks(line, width, height, o.minLine);
  }
  domainTransform(img, 3, width, height, diffs, o.sigmaS, o.sigmaR, o.iterations);

  // Tone: shadows and mid-tones lifted (1 − (1 − Y)^lift), colours more saturated.
  for (let i = 0; i < n; i++) {
    const y = luma(img[3 * i], img[3 * i + 1], img[3 * i + 2]);
    const lifted = 1 - (1 - Math.min(1, y)) ** o.lift;
    for (let ch = 0; ch < 3; ch++) {
      const v = lifted + o.saturation * (img[3 * i + ch] - y);
      img[3 * i + ch] = v < 0 ? 0 : v > 1 ? 1 : v;
    }
  }

  const k = o.colours;
  const feat = features(img, n, o.chroma);
  const centres = kMeans(feat, n, k, 24000, o.seed);
  let labels = new Uint8Array(n);
  for (let i = 0; i < n; i++) labels[i] = nearest(feat, 3 * i, centres, k);
  labels = majority(labels, width, height, k, o.speckle);
  // Each colour of the palette: the mean colour of its pixels.
  const palette = new Float64Array(k * 3);
  const members = new Float64Array(k);
  for (let i = 0; i < n; i++) {
    const c = labels[i];
    members[c]++;
    palette[3 * c] += img[3 * i];
    palette[3 * c + 1] += img[3 * i + 1];
    palette[3 * c + 2] += img[3 * i + 2];
  }
  for (let c = 0; c < k; c++) for (let ch = 0; ch < 3; ch++) palette[3 * c + ch] /= members[c] || 1;

  // How many pixels of each colour, plain or under a line: the picture's mean luminance
  // follows from the palette alone.
  const plain = new Float64Array(k);
  const lined = new Float64Array(k);
  for (let i = 0; i < n; i++) (line[i] ? lined : plain)[labels[i]]++;
  const colours = new Uint8Array(k * 3);
  const inks = new Uint8Array(k * 3);
  let boost = 0;
  for (let attempt = 0; attempt < 12; attempt++) {
    let sum = 0;
    for (let c = 0; c < k; c++) {
      for (let ch = 0; ch < 3; ch++) {
        // Lifting the palette: each colour moves towards white by `boost`.
        const v = palette[3 * c + ch] + boost * (1 - palette[3 * c + ch]);
        colours[3 * c + ch] = Math.round(255 * v);
        inks[3 * c + ch] = Math.round(255 * v * o.ink);
      }
      const p = 3 * c;
      sum +=
        plain[c] * luma(colours[p], colours[p + 1], colours[p + 2]) +
        lined[c] * luma(inks[p], inks[p + 1], inks[p + 2]);
    }
    if (sum / n >= Math.min(250, inputMean + o.brighter)) break;
    boost += 0.04;
  }

  const out = new Uint8Array(n * 3);
  for (let i = 0; i < n; i++) {
    const source = line[i] ? inks : colours;
    const p = 3 * labels[i];
    out[3 * i] = source[p];
    out[3 * i + 1] = source[p + 1];
    out[3 * i + 2] = source[p + 2];
  }
  return out;
}
