import type { Config } from '../../config.js';
import { openAiCatalogue } from './catalogue.js';
import type { LlmProvider } from './llm.js';
import { LocalLlmProvider, type LlmLog } from './local.js';
import { OpenAiLlmProvider } from './openai.js';

export * from './llm.js';

export interface LlmProviderOptions {
  /** Where the local engine keeps pulled models (`<DATA_DIR>/models`). */
  modelsDir: string;
  log: LlmLog;
}

/**
 * LLM_PROVIDER=local (node-llama-cpp, default) or openai (an OpenAI-compatible endpoint);
 * docs/llm.md. Nothing is loaded or fetched here: the local model loads on `warmUp()` (the
 * server calls it in the background on start) or on the first generation.
 */
export function createLlmProvider(config: Config, options: LlmProviderOptions): LlmProvider {
  if (config.LLM_PROVIDER === 'openai') {
    return new OpenAiLlmProvider({
      baseUrl: config.LLM_BASE_URL,
      apiKey: config.LLM_API_KEY,
      models: openAiCatalogue({
        model: config.LLM_MODEL,
        models: config.LLM_MODELS,
        contextSize: config.LLM_CONTEXT_SIZE,
      }),
      idleTimeoutMs: config.LLM_TIMEOUT_S * 1000,
      temperature: config.LLM_TEMPERATURE,
      embeddingsModel: config.LLM_EMBEDDINGS_MODEL,
    });
  }
  if (config.LLM_MODELS)
    options.log.warn('LLM_MODELS lists the models of an OpenAI-compatible endpoint; the local engine ignores it');
  return new LocalLlmProvider({
    modelPath: config.LLM_MODEL_PATH,
    modelUri: config.LLM_MODEL_URI,
    modelsDir: options.modelsDir,
    modelId: config.LLM_MODEL,
    contextSize: config.LLM_CONTEXT_SIZE,
    temperature: config.LLM_TEMPERATURE,
    idleTimeoutMs: config.LLM_TIMEOUT_S * 1000,
    threads: config.LLM_THREADS,
    parallel: config.LLM_PARALLEL,
    log: options.log,
  });
}
