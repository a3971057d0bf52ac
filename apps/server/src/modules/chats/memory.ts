// TEMPORARY (replaced by the chatlogic branch)
import type { Locale } from '@reverie/shared';
import type { LlmProvider } from '../../providers/llm/llm.js';
import type { PromptMessage } from './prompt.js';
export async function summarise(input: {
  llm: LlmProvider;
  model: string;
  previousMemory: string;
  messages: PromptMessage[];
  characterName: string;
  userName: string;
  locale: Locale;
  signal: AbortSignal;
  maxChars: number;
}) {
  let out = '';
  for await (const p of input.llm.generate({
    model: input.model,
    messages: [{ role: 'user', content: input.messages.map((m) => m.text).join('\n') }],
    maxTokens: 200,
    signal: input.signal,
  }))
    out += p;
  return (input.previousMemory + '\n' + out).trim().slice(0, input.maxChars);
}
