import { WorkerThread } from '../../../lib/worker-thread.js';
import type { Raster } from './raster.js';

/** What `cel` (cel.mjs) is asked to do: docs/transform.md "Styles". */
export interface CelOptions {
  /** The palette's size (at most 64). */
  colours: number;
  /** Edge-preserving smoothing of the colours: spatial extent (px), edge strength (0–3), passes. */
  sigmaS: number;
  sigmaR: number;
  iterations: number;
  /** The lighter smoothing the outlines are found on (px, edge strength). */
  lineSmoothing: number;
  lineSigmaR: number;
  /** The outlines' scale (px) and how strong an edge must be to be drawn (0–1 of luminance; 1: no outlines). */
  lineSigma: number;
  lineThreshold: number;
  /** Groups of line pixels smaller than this (px) are specks, not outlines. */
  minLine: number;
  /** An outline's colour: this share of the colour under it (0 black). */
  ink: number;
  /** Tone curve exponent (above 1 brightens shadows and mid-tones) and saturation factor. */
  lift: number;
  saturation: number;
  /** Colour weight against luminance when the palette is chosen. */
  chroma: number;
  /** Majority filter radius (px) against specks of colour. */
  speckle: number;
  /** The least the mean luminance rises above the photo's (0–255). */
  brighter: number;
  seed: number;
}

interface Answer {
  id: number;
  ok: boolean;
  data?: Uint8Array;
  message?: string;
}

/**
 * The worker file: beside this module in the sources, beside `server.js` in the bundle
 * (`build.mjs` bundles it there with what it imports).
 */
const WORKER_URL = new URL('./cel-worker.mjs', import.meta.url);

/** One worker thread per process for the style engine's pixel loops (`cel-worker.mjs`). */
const worker = new WorkerThread<Answer>(WORKER_URL, 'cel');

export const celThread = {
  /** The cel-shaded raster (three channels) of `src`. */
  async cel(src: Raster, options: CelOptions): Promise<Raster> {
    if (src.channels !== 3) throw new Error('cel needs an RGB raster');
    // A copy of its own, handed over to the thread (not cloned again).
    const data = new Uint8Array(src.data);
    const answer = await worker.request(
      { data, width: src.width, height: src.height, options },
      { transfer: [data.buffer] },
    );
    if (!answer.ok || !answer.data) throw new Error(answer.message ?? 'cel failed');
    const out = answer.data;
    return {
      data: Buffer.from(out.buffer, out.byteOffset, out.length),
      width: src.width,
      height: src.height,
      channels: 3,
    };
  },
};
