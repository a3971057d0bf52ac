import type { Config } from '../../config.js';
import type { ModerationProvider } from './moderation.js';
import { OpenAiModerationProvider } from './openai-moderation.js';
import { RulesModerationProvider } from './rules-moderation.js';

export type { ModerationProvider, ModerationVerdict } from './moderation.js';

/** MODERATION_PROVIDER=rules (default) or openai (an OpenAI-compatible /moderations). */
export function createModerationProvider(config: Config): ModerationProvider {
  if (config.MODERATION_PROVIDER === 'openai') {
    return new OpenAiModerationProvider({
      baseUrl: config.MODERATION_URL,
      apiKey: config.MODERATION_API_KEY,
      model: config.MODERATION_MODEL,
    });
  }
  return new RulesModerationProvider();
}
