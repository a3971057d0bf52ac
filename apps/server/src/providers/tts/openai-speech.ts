import { remoteVoiceFor, type RemoteVoices, type SpeechRequest, type TtsProvider } from './tts-provider.js';
import { postSpeech } from './remote-audio.js';

/** OpenAI's `pcm` format: 24 kHz mono 16-bit little-endian, no header. */
const OPENAI_PCM_RATE = 24_000;

/**
 * An OpenAI-compatible speech endpoint (`POST {base}/audio/speech`): OpenAI, or a local
 * server with the same API (Kokoro-FastAPI, openedai-speech, LocalAI…). Asks for MP3, or
 * for raw PCM (`pcm`: 24 kHz mono 16-bit) when the caller prefers it (calls).
 * A character whose voice is an espeak-ng voice speaks with the configured voice of its sex
 * (`nova` for `+f…` variants and `onyx` for `+m…` by default), else the default voice.
 */
export class OpenAiSpeechProvider implements TtsProvider {
  readonly name = 'openai';
  private readonly base: string;

  constructor(private readonly options: { baseUrl: string; apiKey?: string; model: string; voices: RemoteVoices }) {
    this.base = options.baseUrl.replace(/\/+$/, '');
  }

  async synthesise({ text, voice, signal, format }: SpeechRequest) {
    const pcm = format === 'pcm16';
    return postSpeech({
      provider: this.name,
      what: 'audio/speech',
      url: `${this.base}/audio/speech`,
      headers: this.options.apiKey ? { authorization: `Bearer ${this.options.apiKey}` } : {},
      body: {
        model: this.options.model,
        input: text,
        voice: remoteVoiceFor(voice, this.options.voices),
        response_format: pcm ? 'pcm' : 'mp3',
      },
      pcm,
      pcmRate: OPENAI_PCM_RATE,
      signal,
    });
  }
}
