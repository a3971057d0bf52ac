import type { Config } from '../../config.js';
import type { ModerationProvider } from '../moderation/index.js';
import {
  FakeImageModeration,
  LocalImageModeration,
  NoImageModeration,
  type ImageModeration,
} from './image-moderation.js';

export type {
  ImageJudgement,
  ImageModeration,
  ImageModerationSettings,
  ImageVerdict,
  JudgedFace,
  NudityScores,
} from './image-moderation.js';
export {
  DEFAULT_IMAGE_MODERATION,
  FakeImageModeration,
  LocalImageModeration,
  NoImageModeration,
} from './image-moderation.js';

/**
 * IMAGE_MODERATION=local (default: face-age estimate and nudity classifier in a worker thread)
 * or none; `fake` (tests only: refused unless NODE_ENV=test) decodes the picture but loads no model.
 * The moderation provider, when it is the OpenAI-compatible one, is also asked about
 * each picture (docs/moderation.md).
 */
export function createImageModeration(
  config: Config,
  remote: ModerationProvider | undefined,
  log?: { warn: (msg: string) => void },
): ImageModeration {
  if (config.IMAGE_MODERATION === 'none') return new NoImageModeration(remote);
  if (config.IMAGE_MODERATION === 'fake') return new FakeImageModeration(remote);
  return new LocalImageModeration(
    {
      minAge: config.IMAGE_MODERATION_MIN_AGE,
      faceScore: config.IMAGE_MODERATION_FACE_SCORE,
      explicitScore: config.IMAGE_MODERATION_EXPLICIT_SCORE,
      timeoutMs: config.IMAGE_MODERATION_TIMEOUT_MS,
    },
    remote,
    (reason) => log?.warn(`image moderation: ${reason}; the next picture starts a new worker`),
  );
}
