import type { Config } from '../../config.js';
import { ElevenLabsTtsProvider } from './elevenlabs.js';
import { EspeakTtsProvider } from './espeak.js';
import { OpenAiSpeechProvider } from './openai-speech.js';
import type { TtsProvider } from './tts-provider.js';

export { TtsError, type Speech, type SpeechRequest, type TtsProvider } from './tts-provider.js';

/** The text-to-speech provider the settings select (`TTS_PROVIDER`, docs/voice.md). */
export function createTtsProvider(config: Config): TtsProvider {
  switch (config.TTS_PROVIDER) {
    case 'openai':
      return new OpenAiSpeechProvider({
        baseUrl: config.TTS_BASE_URL ?? 'https://api.openai.com/v1',
        apiKey: config.TTS_API_KEY,
        model: config.TTS_MODEL ?? 'gpt-4o-mini-tts',
        voice: config.TTS_VOICE ?? 'alloy',
      });
    case 'elevenlabs': {
      const missing = (['TTS_API_KEY', 'TTS_VOICE'] as const).filter((name) => !config[name]);
      if (missing.length) throw new Error(`TTS_PROVIDER=elevenlabs needs ${missing.join(', ')}`);
      return new ElevenLabsTtsProvider({
        baseUrl: config.TTS_BASE_URL ?? 'https://api.elevenlabs.io',
        apiKey: config.TTS_API_KEY!,
        model: config.TTS_MODEL ?? 'eleven_multilingual_v2',
        voice: config.TTS_VOICE!,
      });
    }
    default:
      return new EspeakTtsProvider();
  }
}
