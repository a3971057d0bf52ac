import sharp from 'sharp';
import { MAX_INPUT_PIXELS } from '../../lib/images.js';
import type { ModerationProvider } from '../moderation/index.js';
import { JudgeThread, type JudgedFace, type NudityScores } from './judge-thread.js';

/**
 * One judge thread per process (per test file under Vitest): every app built in the process
 * shares it, so the models load once. Idle, it never keeps the process alive.
 */
let sharedThread: JudgeThread | null = null;

export function sharedJudgeThread(timeoutMs: number, onExit?: (reason: string) => void): JudgeThread {
  sharedThread ??= new JudgeThread({ timeoutMs, maxQueue: 64, onExit });
  return sharedThread;
}

export type { JudgedFace, NudityScores } from './judge-thread.js';

/**
 * `ok`: nothing found. `minor`: a face judged under the minimum age (or the remote provider
 * said sexual/minors) — the picture is refused with "Inappropriate content". `explicit`: nudity
 * — accepted and marked (blurred in public listings until an administrator reviews it).
 */
export type ImageVerdict = 'ok' | 'minor' | 'explicit';

export interface ImageJudgement {
  verdict: ImageVerdict;
  /** Faces the detector found with at least the face score (the ones whose age counts). */
  faces: JudgedFace[];
  /** nsfwjs's scores; all 0 with IMAGE_MODERATION=none. */
  nudity: NudityScores;
  /** The OpenAI-compatible provider's answer, when one is configured. */
  remote?: { flagged: boolean; categories: string[] };
  /** Which judge answered: the local models, none, or the test-only fake (IMAGE_MODERATION=fake). */
  judge: 'local' | 'none' | 'fake';
  /** Time spent judging (decode, models, remote call), ms. */
  ms: number;
}

/** The picture judge behind one interface (docs/moderation.md). */
export interface ImageModeration {
  readonly name: 'local' | 'none' | 'fake';
  /** Judges an uploaded picture's bytes (any format sharp reads; already checked by `sanitizeImage`). */
  judge(bytes: Buffer): Promise<ImageJudgement>;
  /** Loads the models ahead of the first upload (server start, in the background). */
  warm(): Promise<void>;
  close(): Promise<void>;
}

export interface ImageModerationSettings {
  /** A face estimated younger than this is a minor (18 plus the safety margin; docs/moderation.md). */
  minAge: number;
  /** Only faces detected at least this confidently are judged (drawings give weak, absurd faces). */
  faceScore: number;
  /** porn + hentai at least this marks a picture explicit. */
  explicitScore: number;
  timeoutMs: number;
}

export const DEFAULT_IMAGE_MODERATION: ImageModerationSettings = {
  minAge: 21,
  faceScore: 0.6,
  explicitScore: 0.6,
  timeoutMs: 20_000,
};

/** The pixels the judge looks at: upright, at most this many px on the long side. */
const JUDGE_MAX_SIDE = 1024;

const NO_NUDITY: NudityScores = { drawing: 0, hentai: 0, neutral: 1, porn: 0, sexy: 0 };

/** The remote provider's categories that make a picture a minor's (refused) or explicit (marked). */
const MINOR_CATEGORIES = new Set(['sexual/minors']);
const SEXUAL_CATEGORIES = new Set(['sexual']);

/** Combines the local verdict with the remote provider's: a minor on either side wins, then explicit. */
export function combineVerdicts(
  local: ImageVerdict,
  remote?: { flagged: boolean; categories: string[] },
): ImageVerdict {
  if (local === 'minor') return 'minor';
  if (remote?.flagged) {
    if (remote.categories.some((c) => MINOR_CATEGORIES.has(c))) return 'minor';
    if (remote.categories.some((c) => SEXUAL_CATEGORIES.has(c))) return 'explicit';
    // Anything else the provider flags (violence, self-harm, hate…) is refused as before.
    return 'minor';
  }
  return local;
}

/** The verdict of the local models alone. */
export function localVerdict(
  faces: JudgedFace[],
  nudity: NudityScores,
  settings: ImageModerationSettings,
): ImageVerdict {
  if (faces.some((face) => face.score >= settings.faceScore && face.age < settings.minAge)) return 'minor';
  if (nudity.porn + nudity.hentai >= settings.explicitScore) return 'explicit';
  return 'ok';
}

/** The pixels the local models see: upright, at most JUDGE_MAX_SIDE px on the long side, sRGB, no alpha. */
function judgedPixels(bytes: Buffer) {
  return sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, animated: false })
    .rotate()
    .resize({ width: JUDGE_MAX_SIDE, height: JUDGE_MAX_SIDE, fit: 'inside', withoutEnlargement: true })
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
}

async function askRemote(remote: ModerationProvider | undefined, bytes: Buffer) {
  if (!remote || remote.name === 'rules') return undefined;
  const webp = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, animated: false })
    .rotate()
    .resize({ width: JUDGE_MAX_SIDE, height: JUDGE_MAX_SIDE, fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 85 })
    .toBuffer();
  const verdict = await remote.checkImage(webp, 'image/webp');
  return {
    flagged: verdict.flagged,
    categories: verdict.categories ?? (verdict.reason ? verdict.reason.split(',') : []),
  };
}

/** IMAGE_MODERATION=local: face-api and nsfwjs on tfjs's WASM backend, in one worker thread. */
export class LocalImageModeration implements ImageModeration {
  readonly name = 'local';
  readonly thread: JudgeThread;

  constructor(
    private readonly settings: ImageModerationSettings = DEFAULT_IMAGE_MODERATION,
    private readonly remote?: ModerationProvider,
    onWorkerExit?: (reason: string) => void,
  ) {
    this.thread = sharedJudgeThread(settings.timeoutMs, onWorkerExit);
  }

  async judge(bytes: Buffer): Promise<ImageJudgement> {
    const started = performance.now();
    // Decoded here (sharp runs on libuv's threads, not the event loop); the worker gets pixels.
    const { data, info } = await judgedPixels(bytes);
    const pixels = new Uint8Array(data.buffer, data.byteOffset, data.byteLength).slice();
    const [local, remote] = await Promise.all([
      this.thread.judge(pixels, info.width, info.height, this.settings.faceScore),
      askRemote(this.remote, bytes),
    ]);
    const faces = local.faces.filter((face) => face.score >= this.settings.faceScore);
    return {
      verdict: combineVerdicts(localVerdict(faces, local.nudity, this.settings), remote),
      faces,
      nudity: local.nudity,
      ...(remote ? { remote } : {}),
      judge: 'local',
      ms: Math.round(performance.now() - started),
    };
  }

  warm(): Promise<void> {
    return this.thread.warm();
  }

  /** The shared thread stays (another app of the process may use it); idle, it holds nothing open. */
  async close(): Promise<void> {}
}

/** A judgement with no local models: no face, no nudity, and the remote provider's verdict if any. */
async function remoteOnly(
  judge: 'none' | 'fake',
  remote: ModerationProvider | undefined,
  bytes: Buffer,
  started: number,
): Promise<ImageJudgement> {
  const verdict = await askRemote(remote, bytes);
  return {
    verdict: combineVerdicts('ok', verdict),
    faces: [],
    nudity: NO_NUDITY,
    ...(verdict ? { remote: verdict } : {}),
    judge,
    ms: Math.round(performance.now() - started),
  };
}

/** IMAGE_MODERATION=none: no local models; only the remote provider, when one is configured. */
export class NoImageModeration implements ImageModeration {
  readonly name = 'none';

  constructor(private readonly remote?: ModerationProvider) {}

  judge(bytes: Buffer): Promise<ImageJudgement> {
    return remoteOnly('none', this.remote, bytes, performance.now());
  }

  async warm(): Promise<void> {}

  async close(): Promise<void> {}
}

/**
 * IMAGE_MODERATION=fake, for tests only (loadConfig refuses it unless NODE_ENV=test, with no way
 * to acknowledge it): the local judge's contract without its models. It decodes the picture exactly
 * as the local judge does (bytes sharp cannot read fail the same way, so the upload answers 503),
 * finds no face and no nudity, and asks the remote provider like the local judge, so a flagged
 * picture is refused or marked the same way. Loading face-api and nsfwjs takes seconds of CPU
 * per test file; only the tests of the judge itself need them (docs/testing.md).
 */
export class FakeImageModeration implements ImageModeration {
  readonly name = 'fake';
  /** How many pictures it judged, for tests that check a picture was judged at all. */
  judged = 0;

  constructor(private readonly remote?: ModerationProvider) {}

  async judge(bytes: Buffer): Promise<ImageJudgement> {
    const started = performance.now();
    const [, judgement] = await Promise.all([judgedPixels(bytes), remoteOnly('fake', this.remote, bytes, started)]);
    this.judged += 1;
    return judgement;
  }

  async warm(): Promise<void> {}

  async close(): Promise<void> {}
}
