// TEMPORARY (replaced by the chatlogic branch)
import type { Locale } from '@reverie/shared';
import type { ChatTurn } from '../../providers/llm/llm.js';
export interface PromptMessage {
  role: 'user' | 'bot' | 'system';
  text: string;
}
export interface PromptInput {
  character: {
    name: string;
    description: string;
    personality: string;
    scenario: string;
    exampleMessages: string;
    systemPrompt: string;
    postHistoryInstructions: string;
    lorebook: unknown;
  };
  userName: string;
  persona: { name: string; description: string } | null;
  memory: string;
  history: PromptMessage[];
  locale: Locale;
  contextSize: number;
  maxTokens: number;
  countTokens: (text: string) => number | Promise<number>;
}
export async function buildPrompt(input: PromptInput) {
  const messages: ChatTurn[] = [
    { role: 'system', content: `You are ${input.character.name}. ${input.character.description}` },
  ];
  const h = input.history.filter((m) => m.role !== 'system').slice(-20);
  for (const m of h) messages.push({ role: m.role === 'bot' ? 'assistant' : 'user', content: m.text });
  return { messages, historyIncluded: h.length, truncated: input.history.length > 20 };
}
