import path from 'node:path';
import type { Config } from '../../config.js';
import { ElevenLabsTtsProvider } from './elevenlabs.js';
import { EspeakTtsProvider } from './espeak.js';
import { OpenAiSpeechProvider } from './openai-speech.js';
import { LocalTtsProvider } from './sherpa-local.js';
import type { TtsProvider } from './tts-provider.js';

export { TtsError, voiceGender, type Speech, type SpeechRequest, type TtsProvider } from './tts-provider.js';

export interface TtsLog {
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string): void;
}

const silent: TtsLog = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** The text-to-speech provider the settings select (`TTS_PROVIDER`, docs/voice.md). */
export function createTtsProvider(config: Config, log: TtsLog = silent): TtsProvider {
  switch (config.TTS_PROVIDER) {
    case 'local':
      return new LocalTtsProvider({
        baseUrl: config.TTS_LOCAL_VOICES_URL,
        dir: path.join(config.dataDir, 'models', 'tts'),
        threads: config.SPEECH_THREADS,
        log,
      });
    case 'openai':
      return new OpenAiSpeechProvider({
        baseUrl: config.TTS_BASE_URL ?? 'https://api.openai.com/v1',
        apiKey: config.TTS_API_KEY,
        model: config.TTS_MODEL ?? 'gpt-4o-mini-tts',
        // OpenAI's own voices by default; an operator who names TTS_VOICE (a local server with
        // other voice names) gets it for everyone unless the per-sex voices are named too.
        voices: {
          voice: config.TTS_VOICE ?? 'alloy',
          female: config.TTS_VOICE_FEMALE ?? config.TTS_VOICE ?? 'nova',
          male: config.TTS_VOICE_MALE ?? config.TTS_VOICE ?? 'onyx',
        },
      });
    case 'elevenlabs': {
      const missing = (['TTS_API_KEY', 'TTS_VOICE'] as const).filter((name) => !config[name]);
      if (missing.length) throw new Error(`TTS_PROVIDER=elevenlabs needs ${missing.join(', ')}`);
      return new ElevenLabsTtsProvider({
        baseUrl: config.TTS_BASE_URL ?? 'https://api.elevenlabs.io',
        apiKey: config.TTS_API_KEY!,
        model: config.TTS_MODEL ?? 'eleven_multilingual_v2',
        voices: {
          voice: config.TTS_VOICE!,
          female: config.TTS_VOICE_FEMALE ?? config.TTS_VOICE!,
          male: config.TTS_VOICE_MALE ?? config.TTS_VOICE!,
        },
      });
    }
    default:
      return new EspeakTtsProvider();
  }
}
