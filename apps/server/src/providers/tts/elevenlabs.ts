import { remoteVoiceFor, type RemoteVoices, type SpeechRequest, type TtsProvider } from './tts-provider.js';
import { postSpeech } from './remote-audio.js';

/**
 * ElevenLabs (`POST {base}/v1/text-to-speech/{voice_id}`, key in `xi-api-key`), MP3 at
 * 22 050 Hz / 32 kbps, or raw 24 kHz PCM (`pcm_24000`) when the caller prefers it (calls). A character whose voice is an espeak-ng voice speaks with the
 * configured voice id of its sex (`TTS_VOICE_FEMALE`/`TTS_VOICE_MALE`, else `TTS_VOICE`); the
 * multilingual models pick the language from the text.
 */
export class ElevenLabsTtsProvider implements TtsProvider {
  readonly name = 'elevenlabs';
  private readonly base: string;

  constructor(private readonly options: { baseUrl: string; apiKey: string; model: string; voices: RemoteVoices }) {
    this.base = options.baseUrl.replace(/\/+$/, '');
  }

  async synthesise({ text, voice, signal, format }: SpeechRequest) {
    const pcm = format === 'pcm16';
    const voiceId = remoteVoiceFor(voice, this.options.voices);
    return postSpeech({
      provider: this.name,
      what: 'text-to-speech',
      url: `${this.base}/v1/text-to-speech/${encodeURIComponent(voiceId)}?output_format=${pcm ? 'pcm_24000' : 'mp3_22050_32'}`,
      headers: { 'xi-api-key': this.options.apiKey },
      body: { text, model_id: this.options.model },
      pcm,
      pcmRate: 24_000,
      signal,
    });
  }
}
