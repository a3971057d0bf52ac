import type { Config } from '../../config.js';
import { createLocalSttProvider, type LocalSttOptions } from './local.js';
import { OpenAiSttProvider } from './openai.js';
import type { SttAvailability } from './availability.js';
import { SttError, type SttProvider, type SttStatus } from './stt-provider.js';

export * from './stt-provider.js';
export type { SttAvailability, SttUnavailableReason } from './availability.js';
export { OpenAiSttProvider } from './openai.js';

/**
 * No speech recognition: calls cannot start (`GET /api/config` says why — `stt_disabled` —,
 * the token answers 409 `stt_unavailable`).
 */
export class UnavailableSttProvider implements SttProvider {
  readonly name = 'none';
  constructor(private readonly reason: string) {}

  status(): SttStatus {
    return { state: 'unavailable', reason: this.reason };
  }

  availability(): Promise<SttAvailability> {
    return Promise.resolve({ ok: false, reason: 'stt_disabled', detail: this.reason });
  }

  prepare(): Promise<void> {
    return Promise.reject(new SttError('stt_unavailable', this.reason, this.name));
  }

  transcribe(): Promise<never> {
    return Promise.reject(new SttError('stt_unavailable', this.reason, this.name));
  }
}

/** The speech recognition the settings select (STT_PROVIDER). */
export function createSttProvider(config: Config, log: LocalSttOptions['log']): SttProvider {
  switch (config.STT_PROVIDER) {
    case 'openai':
      return new OpenAiSttProvider({
        baseUrl: config.STT_BASE_URL,
        apiKey: config.STT_API_KEY,
        model: config.STT_MODEL,
        timeoutMs: config.STT_TIMEOUT_S * 1000,
      });
    case 'local':
      // Whisper through sherpa-onnx-node, pulled on the first call (docs/voice.md "Speech in calls").
      return createLocalSttProvider(config, log);
    case 'none':
      return new UnavailableSttProvider('STT_PROVIDER is none');
  }
}
