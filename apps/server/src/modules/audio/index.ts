import type { Core } from '../../core.js';
import { defineModule } from '../../lib/module.js';
import type { BillingService } from '../billing/index.js';
import { audioRoutes } from './audio.routes.js';
import { AudioService } from './audio.service.js';

export type AudioModuleDeps = Pick<Core, 'config' | 'db' | 'storage' | 'urls' | 'tts' | 'jobs' | 'log'> & {
  /** The billing module: voice messages are premium. */
  billing: Pick<BillingService, 'hasPremium'>;
};

declare module 'fastify' {
  interface FastifyInstance {
    /** Voice messages' service (tests and the benchmark wait for its jobs with `audio.idle()`). */
    audio: AudioService;
  }
}

/**
 * The audio module (issue 7, docs/voice.md): `POST /api/audio/{message_id}`, a durable
 * background job per voice message, run by any replica.
 */
export const audioModule = defineModule<AudioModuleDeps>('audio', async (app, deps) => {
  const { config } = deps;
  const audio = new AudioService({
    ...deps,
    timeoutMs: config.TTS_TIMEOUT_S * 1000,
    concurrency: config.TTS_CONCURRENCY,
    mp3Kbps: config.TTS_MP3_KBPS,
    retries: config.TTS_RETRIES,
    retryDelayS: config.TTS_RETRY_DELAY_S,
  });
  app.decorate('audio', audio);
  await app.register(audioRoutes, { service: audio });
});

export type { AudioService } from './audio.service.js';
/** For the chats presenter: whether a message's voice is ready to play. */
export { hasAudio } from './audio.presenter.js';
/** What a voice reads of a message, and its language (voice calls speak replies the same way). */
export { speechText } from './speech-text.js';
export { detectLanguage } from './language.js';
