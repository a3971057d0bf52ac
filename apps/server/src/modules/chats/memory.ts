/**
 * Chat memory (issue 5 item 5): when a chat outgrows the model's context, the older messages
 * are folded, in the background, into a short summary that the prompt builder puts before
 * the history. The user can read and edit it (Memories panel), so the previous memory is
 * merged, never thrown away.
 */
import type { Locale } from '@reverie/shared';
import type { ChatTurn, LlmProvider } from '../../providers/llm/llm.js';
import { replaceNames, type PromptMessage } from './prompt.js';

/** The language the memory is written in (named in English for the model). */
const LANGUAGE_NAMES: Record<Locale, string> = {
  en: 'English',
  ch: 'Simplified Chinese',
  es: 'Spanish',
  de: 'German',
  ru: 'Russian',
};

/** A single message longer than this is clipped in the summary prompt (its start and end kept). */
export const SUMMARY_MESSAGE_MAX_CHARS = 4000;

export interface SummariseInput {
  llm: LlmProvider;
  model: string;
  /** The memory so far ('' if none), possibly edited by the user. */
  previousMemory: string;
  /** The messages to fold in, oldest first (system notices are skipped). */
  messages: PromptMessage[];
  characterName: string;
  userName: string;
  /** The user's interface language: the memory is written in it. */
  locale: Locale;
  signal: AbortSignal;
  /** The memory's maximum length in characters (code points). */
  maxChars: number;
}

function clip(text: string, max: number): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  const half = Math.floor((max - 3) / 2);
  return `${chars.slice(0, half).join('')} … ${chars.slice(chars.length - half).join('')}`;
}

/** The turns that ask the model for the merged memory. */
export function summaryPrompt(input: Omit<SummariseInput, 'llm' | 'model' | 'signal'>): ChatTurn[] {
  const { characterName: char, userName: user } = input;
  const language = LANGUAGE_NAMES[input.locale];
  const transcript = input.messages
    .filter((m) => m.role !== 'system')
    .map((m) => {
      const text = clip(replaceNames(m.text, char, user).trim(), SUMMARY_MESSAGE_MAX_CHARS);
      return `${m.role === 'bot' ? char : user}: ${text}`;
    })
    .join('\n\n');
  const system = [
    `You keep the long-term memory of a role-play chat between ${user} (the user) and ${char} (a fictional character).`,
    'Rewrite the memory so that it includes what matters from the new messages, merged with the current memory:',
    `- facts about ${user}: name, life, likes and dislikes, people and pets, plans, feelings they shared;`,
    `- the relationship between ${user} and ${char}, and how it changed;`,
    '- promises, agreements, nicknames and running jokes;',
    '- important events of the story, in order, with places and names.',
    'Keep everything in the current memory that is still true (the user may have edited it: keep their wording and corrections); drop what the new messages contradict, small talk, and repetitions.',
    `Write in ${language}, in short plain sentences or bullet points, in the third person, and never more than ${input.maxChars} characters.`,
    'Answer with the memory text only: no title, no introduction, no comments.',
  ].join('\n');
  const user_ = [
    `Current memory:\n${input.previousMemory.trim() || '(empty)'}`,
    `New messages:\n${transcript || '(none)'}`,
    `Write the updated memory now (${language}, at most ${input.maxChars} characters).`,
  ].join('\n\n');
  return [
    { role: 'system', content: system },
    { role: 'user', content: user_ },
  ];
}

/**
 * Cuts `text` to at most `maxChars` code points without splitting a character, preferring
 * the end of a line, then of a sentence, then of a word, when one is near the limit.
 */
export function truncateMemory(text: string, maxChars: number): string {
  const chars = Array.from(text.trim());
  if (chars.length <= maxChars) return chars.join('');
  if (maxChars <= 0) return '';
  const head = chars.slice(0, maxChars).join('');
  const floor = Math.floor(head.length * 0.6);
  const cutAt = (pattern: RegExp) => {
    let last = -1;
    for (const match of head.matchAll(pattern)) last = match.index + match[0].length;
    return last >= floor ? last : -1;
  };
  const end = [cutAt(/\n/g), cutAt(/[.!?。！？…](?=\s|$)|[。！？]/gu), cutAt(/\s/g)].find((i) => i > 0);
  return (end ? head.slice(0, end) : head).trim();
}

/** Removes a title, label or code fence a model sometimes puts around its answer. */
function clean(reply: string): string {
  return reply
    .trim()
    .replace(/^```[\w-]*\n?|\n?```$/g, '')
    .replace(
      /^(?:#+\s*)?(?:updated\s+memory|memory|memoria|gedächtnis|erinnerung(?:en)?|память|记忆|記憶)\s*[:：]\s*/iu,
      '',
    )
    .trim();
}

/**
 * Folds `messages` into the memory with the chat's model and answers the new memory, in the
 * user's language and at most `maxChars` long. An empty answer keeps the previous memory;
 * provider errors and aborts are thrown to the caller (the background job retries later).
 */
export async function summarise(input: SummariseInput): Promise<string> {
  const messages = summaryPrompt(input);
  let reply = '';
  const stream = input.llm.generate({
    model: input.model,
    messages,
    // Enough for maxChars of Chinese (≈ 1.5 characters a token) with room for a preamble.
    maxTokens: Math.ceil(input.maxChars / 1.5) + 64,
    temperature: 0.2,
    signal: input.signal,
  });
  for await (const piece of stream) {
    input.signal.throwIfAborted();
    reply += piece;
  }
  const memory = clean(reply);
  return truncateMemory(memory || input.previousMemory, input.maxChars);
}
