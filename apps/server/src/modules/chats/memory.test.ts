import { describe, expect, it } from 'vitest';
import { LlmError, estimateTokens, type GenerateRequest, type LlmProvider } from '../../providers/llm/llm.js';
import { summarise, summaryPrompt, truncateMemory, type SummariseInput } from './memory.js';

/** A provider that streams a scripted reply in small pieces and records what it was asked. */
function scriptedLlm(reply: string | ((request: GenerateRequest) => string), options: { fail?: boolean } = {}) {
  const requests: GenerateRequest[] = [];
  const llm: LlmProvider = {
    models: () => [{ id: 'fake', label: 'Fake', provider: 'local', contextSize: 4096, premium: false }],
    status: () => ({ ready: true }),
    countTokens: (_model, text) => estimateTokens(text),
    async *generate(request) {
      requests.push(request);
      if (options.fail) throw new LlmError('provider_error', 'boom');
      const text = typeof reply === 'string' ? reply : reply(request);
      for (let i = 0; i < text.length; i += 7) {
        await Promise.resolve();
        request.signal.throwIfAborted();
        yield text.slice(i, i + 7);
      }
    },
  };
  return { llm, requests };
}

const input = (overrides: Partial<SummariseInput> = {}): SummariseInput => ({
  llm: scriptedLlm('').llm,
  model: 'fake',
  previousMemory: 'Alex is a painter. Alex has a cat called Fog.',
  messages: [
    { role: 'user', text: 'I got the job in Lisbon! I start in May, {{char}}.' },
    { role: 'system', text: 'PLATFORM NOTICE' },
    { role: 'bot', text: 'Congratulations, {{user}}! I promise to visit you there.' },
  ],
  characterName: 'Mira',
  userName: 'Alex',
  locale: 'es',
  signal: new AbortController().signal,
  maxChars: 300,
  ...overrides,
});

describe('summaryPrompt', () => {
  it('asks to merge the previous memory with the new messages, in the user language, within the limit', () => {
    const [system, user] = summaryPrompt(input());
    expect(system!.role).toBe('system');
    expect(system!.content).toMatch(/Spanish/);
    expect(system!.content).toMatch(/300 characters/);
    expect(system!.content).toMatch(/promises/);
    expect(user!.content).toContain('Alex has a cat called Fog.');
    expect(user!.content).toContain('Alex: I got the job in Lisbon! I start in May, Mira.');
    expect(user!.content).toContain('Mira: Congratulations, Alex! I promise to visit you there.');
    expect(user!.content).not.toContain('PLATFORM NOTICE');
  });
});

describe('summarise', () => {
  it('streams the merged memory from the model and cleans a label', async () => {
    const merged =
      'Memoria: Alex es pintor y tiene un gato llamado Fog. Consiguió trabajo en Lisboa y empieza en mayo. Mira prometió visitarle.';
    const { llm, requests } = scriptedLlm(merged);
    const memory = await summarise(input({ llm }));
    expect(memory).toBe(
      'Alex es pintor y tiene un gato llamado Fog. Consiguió trabajo en Lisboa y empieza en mayo. Mira prometió visitarle.',
    );
    expect(requests).toHaveLength(1);
    expect(requests[0]!.model).toBe('fake');
    // The previous memory reached the model, so it can merge.
    expect(requests[0]!.messages.at(-1)!.content).toContain('Alex has a cat called Fog.');
  });

  it('truncates a reply longer than maxChars at a sentence end, never splitting a character', async () => {
    const sentence = '她答应过周末一起去看海。';
    const { llm } = scriptedLlm(sentence.repeat(40) + '😀'.repeat(50));
    const memory = await summarise(input({ llm, locale: 'ch', maxChars: 100 }));
    expect(Array.from(memory).length).toBeLessThanOrEqual(100);
    expect(memory.endsWith('。')).toBe(true);
    const emoji = await summarise(input({ llm: scriptedLlm('😀'.repeat(500)).llm, maxChars: 33 }));
    expect(Array.from(emoji)).toHaveLength(33);
    expect(emoji).toBe('😀'.repeat(33));
  });

  it('keeps the previous memory when the model answers nothing', async () => {
    const { llm } = scriptedLlm('   ');
    expect(await summarise(input({ llm }))).toBe('Alex is a painter. Alex has a cat called Fog.');
    expect(await summarise(input({ llm, maxChars: 18 }))).toBe('Alex is a painter.');
  });

  it('throws provider errors and aborts to the caller', async () => {
    await expect(summarise(input({ llm: scriptedLlm('x', { fail: true }).llm }))).rejects.toThrow(LlmError);
    const controller = new AbortController();
    const { llm } = scriptedLlm(() => {
      controller.abort();
      return 'a long reply that is cut off';
    });
    await expect(summarise(input({ llm, signal: controller.signal }))).rejects.toThrow();
  });
});

describe('truncateMemory', () => {
  it('prefers line, sentence and word ends near the limit', () => {
    expect(truncateMemory('short', 10)).toBe('short');
    expect(truncateMemory('- one fact\n- another fact that is long', 30)).toBe('- one fact\n- another fact');
    expect(truncateMemory('First sentence here. Second one is long', 30)).toBe('First sentence here.');
    expect(truncateMemory('alpha beta gamma delta epsilon', 20)).toBe('alpha beta gamma');
    expect(truncateMemory('abcdefghijklmnopqrstuvwxyz', 10)).toBe('abcdefghij');
    expect(truncateMemory('anything', 0)).toBe('');
  });
});
