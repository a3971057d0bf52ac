import type { Config } from '../../config.js';
import { LlmError, type LlmProvider } from './llm.js';

export * from './llm.js';

export interface LlmProviderOptions {
  /** Where the local engine keeps pulled models (`<DATA_DIR>/models`). */
  modelsDir: string;
  log: { info(msg: string): void; warn(msg: string): void; error(msg: string): void };
}

/**
 * LLM_PROVIDER=local (node-llama-cpp, default) or openai (an OpenAI-compatible endpoint).
 * The providers themselves arrive with the LLM engine work of issue 5; until then every
 * generation fails with `model_unavailable`, which the chat shows with a retry button.
 */
export function createLlmProvider(config: Config, _options: LlmProviderOptions): LlmProvider {
  const model = config.LLM_MODEL ?? 'default';
  return {
    models: () => [
      { id: model, label: model, provider: config.LLM_PROVIDER, contextSize: config.LLM_CONTEXT_SIZE, premium: false },
    ],
    status: () => ({ ready: false, code: 'model_unavailable', detail: 'No language model is configured' }),
    countTokens: (_model, text) => Math.ceil(text.length / 4),
    // eslint-disable-next-line require-yield
    async *generate() {
      throw new LlmError('model_unavailable', 'No language model is configured');
    },
  };
}
