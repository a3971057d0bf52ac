import {
  remoteVoiceFor,
  toTtsError,
  type RemoteVoices,
  type Speech,
  type SpeechRequest,
  type TtsProvider,
} from './tts-provider.js';
import { readMp3Answer, readPcmAnswer } from './remote-audio.js';

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

  async synthesise({ text, voice, signal, format }: SpeechRequest): Promise<Speech> {
    const pcm = format === 'pcm16';
    const voiceId = remoteVoiceFor(voice, this.options.voices);
    try {
      const response = await fetch(
        `${this.base}/v1/text-to-speech/${encodeURIComponent(voiceId)}?output_format=${pcm ? 'pcm_24000' : 'mp3_22050_32'}`,
        {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: pcm ? 'audio/pcm' : 'audio/mpeg',
            'xi-api-key': this.options.apiKey,
          },
          body: JSON.stringify({ text, model_id: this.options.model }),
          signal,
        },
      );
      if (pcm) return await readPcmAnswer(response, 24_000, this.name, 'text-to-speech');
      return { format: 'mp3', data: await readMp3Answer(response, this.name, 'text-to-speech') };
    } catch (error) {
      throw toTtsError(error, this.name, signal);
    }
  }
}
