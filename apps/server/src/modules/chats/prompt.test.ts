import { describe, expect, it } from 'vitest';
import { estimateTokens, type ChatTurn } from '../../providers/llm/llm.js';
import {
  MESSAGE_OVERHEAD_TOKENS,
  buildPrompt,
  historyReadBudget,
  replaceNames,
  selectLoreEntries,
  truncateToTokens,
  type PromptCharacter,
  type PromptInput,
  type PromptMessage,
} from './prompt.js';

const character: PromptCharacter = {
  name: 'Mira',
  description: '{{char}} is a 27-year-old lighthouse keeper who writes letters to {{user}}.',
  personality: 'Warm, curious, teasing. <BOT> loves storms.',
  scenario: '{{User}} arrives at the lighthouse of {{ char }} on a stormy night.',
  exampleMessages:
    '<START>\n{{user}}: Hi!\n{{char}}: Oh, a visitor! Come in, <USER>.\n<START>\n{{user}}: Cold?\n{{char}}: Always.',
  systemPrompt: 'Write vivid replies as {{char}}. {{original}}',
  postHistoryInstructions: 'Keep replies under 120 words, {{char}}.',
  lorebook: {
    name: 'Coast',
    token_budget: 400,
    entries: [
      { keys: ['lantern'], content: 'LORE-LANTERN: the lantern is 150 years old.', enabled: true, insertion_order: 2 },
      {
        keys: ['Harbour', 'port'],
        content: 'LORE-HARBOUR: the harbour froze last winter.',
        enabled: true,
        insertion_order: 1,
      },
      { keys: ['ghost'], content: 'LORE-GHOST: a ghost walks the stairs.', enabled: true, insertion_order: 0 },
      { keys: ['lantern'], content: 'LORE-DISABLED: never shown.', enabled: false, insertion_order: 0 },
      {
        keys: ['never-mentioned'],
        content: 'LORE-CONSTANT: the sea is always near.',
        constant: true,
        insertion_order: 5,
      },
      { keys: ['cat'], content: 'LORE-CAT: the cat is called Fog.', enabled: true, insertion_order: 3 },
      { keys: ['灯塔'], content: 'LORE-ZH: 灯塔很古老。', enabled: true, insertion_order: 4 },
    ],
  },
};

function history(count: number, wordsEach = 30): PromptMessage[] {
  const messages: PromptMessage[] = [];
  for (let i = 0; i < count; i++) {
    const role = i % 2 === 0 ? 'user' : 'bot';
    messages.push({ role, text: `#${i} ${role} ` + 'word '.repeat(wordsEach).trim() });
    if (i % 7 === 3) messages.push({ role: 'system', text: `notice ${i}` });
  }
  messages.push({ role: 'user', text: 'NEWEST what about the lantern, {{char}}?' });
  return messages;
}

const base = (overrides: Partial<PromptInput> = {}): PromptInput => ({
  character,
  userName: 'Alex',
  persona: { name: 'Alex', description: '{{user}} is a travelling painter.' },
  memory: 'Alex promised to bring {{char}} a book.',
  history: history(6),
  locale: 'de',
  contextSize: 8192,
  maxTokens: 512,
  countTokens: estimateTokens,
  ...overrides,
});

const total = (messages: ChatTurn[], count: (t: string) => number) =>
  messages.reduce((sum, m) => sum + count(m.content) + MESSAGE_OVERHEAD_TOKENS, 0);
const allText = (messages: ChatTurn[]) => messages.map((m) => m.content).join('\n');

describe('replaceNames', () => {
  it('replaces every spelling of the macros', () => {
    expect(replaceNames('{{char}} {{CHAR}} {{ user }} <BOT> <user> <Char> {{User}}', 'M', 'A')).toBe('M M A M A M A');
  });
  it('does not treat $ in names as a replacement pattern', () => {
    expect(replaceNames('{{user}}', 'M', "$&$'")).toBe("$&$'");
  });
});

describe('buildPrompt', () => {
  it('orders platform rules, card, persona, lorebook, memory, history, post-history', async () => {
    const { messages, truncated, historyIncluded } = await buildPrompt(base());
    expect(truncated).toBe(false);
    expect(historyIncluded).toBe(base().history.length);
    expect(messages[0]!.role).toBe('system');
    const system = messages[0]!.content;
    const at = (s: string) => {
      const i = system.indexOf(s);
      expect(i, s).toBeGreaterThanOrEqual(0);
      return i;
    };
    expect(at('Platform rules')).toBeLessThan(at('Write vivid replies as Mira.'));
    expect(at('Write vivid replies')).toBeLessThan(at('lighthouse keeper'));
    expect(at('lighthouse keeper')).toBeLessThan(at('Mira loves storms'));
    expect(at('Mira loves storms')).toBeLessThan(at('Alex arrives at the lighthouse of Mira'));
    expect(at('Alex arrives')).toBeLessThan(at('Oh, a visitor! Come in, Alex.'));
    expect(at('Come in, Alex')).toBeLessThan(at('Alex is a travelling painter'));
    expect(at('travelling painter')).toBeLessThan(at('LORE-LANTERN'));
    expect(at('LORE-LANTERN')).toBeLessThan(at('Alex promised to bring Mira a book'));
    expect(system).toContain('German');
    expect(system).not.toContain('<START>');
    expect(system).not.toContain('{{original}}');
    const last = messages.at(-1)!;
    expect(last).toEqual({ role: 'system', content: expect.stringContaining('Keep replies under 120 words, Mira.') });
    expect(messages.at(-2)).toEqual({ role: 'user', content: 'NEWEST what about the lantern, Mira?' });
    // bot → assistant, platform notices skipped
    expect(messages.filter((m) => m.role === 'assistant')).toHaveLength(3);
    expect(allText(messages)).not.toContain('notice');
    expect(allText(messages)).not.toMatch(/\{\{|<bot>|<user>/i);
  });

  it('includes lorebook hits in insertion order and excludes non-hits and disabled entries', async () => {
    const messages: PromptMessage[] = [
      { role: 'user', text: 'Is there a GHOST here?' },
      { role: 'bot', text: 'Only in the harbour stories.' },
      { role: 'user', text: 'And the Lantern?' },
    ];
    const { messages: turns } = await buildPrompt(base({ history: messages }));
    const system = turns[0]!.content;
    expect(system).toContain('LORE-GHOST');
    expect(system).toContain('LORE-HARBOUR');
    expect(system).toContain('LORE-LANTERN');
    expect(system).toContain('LORE-CONSTANT');
    expect(system).not.toContain('LORE-DISABLED');
    expect(system).not.toContain('LORE-CAT');
    expect(system).not.toContain('LORE-ZH');
    expect(system.indexOf('LORE-GHOST')).toBeLessThan(system.indexOf('LORE-HARBOUR'));
    expect(system.indexOf('LORE-HARBOUR')).toBeLessThan(system.indexOf('LORE-LANTERN'));
    expect(system.indexOf('LORE-LANTERN')).toBeLessThan(system.indexOf('LORE-CONSTANT'));
  });

  it('matches whole words, CJK substrings, and only the last few messages', async () => {
    const scan = (texts: string[]) =>
      selectLoreEntries(character.lorebook, texts, 10_000, async (t) => estimateTokens(t));
    expect(await scan(['a category of things'])).not.toContain('LORE-CAT: the cat is called Fog.');
    expect(await scan(['my cat!'])).toContain('LORE-CAT: the cat is called Fog.');
    expect(await scan(['我们去灯塔吧'])).toContain('LORE-ZH: 灯塔很古老。');
    expect(await scan(['the ghost', 'a', 'b', 'c', 'd'])).not.toContain('LORE-GHOST: a ghost walks the stairs.');
    expect(await scan(['the ghost', 'a', 'b', 'c'])).toContain('LORE-GHOST: a ghost walks the stairs.');
  });

  it("respects the book's token budget, keeping higher-priority entries", async () => {
    const book = {
      token_budget: 12,
      entries: [
        { keys: ['a'], content: 'low priority entry text here', priority: 1, insertion_order: 0 },
        { keys: ['a'], content: 'high priority entry text here', priority: 9, insertion_order: 1 },
        { keys: ['b'], content: 'selective needs secondary', selective: true, secondary_keys: ['z'] },
      ],
    };
    const chosen = await selectLoreEntries(book, ['a b'], 10_000, async (t) => estimateTokens(t));
    expect(chosen).toEqual(['high priority entry text here']);
    expect(await selectLoreEntries(book, ['b z'], 10_000, async (t) => estimateTokens(t))).toEqual([
      'selective needs secondary',
    ]);
    expect(await selectLoreEntries(null, ['a'], 100, async () => 1)).toEqual([]);
    expect(await selectLoreEntries({ entries: 'nonsense' }, ['a'], 100, async () => 1)).toEqual([]);
  });

  it('never exceeds contextSize − maxTokens and always keeps the newest message (many sizes)', async () => {
    // A counter unlike the estimate: one token per word-ish piece, async.
    const counters: ((t: string) => number | Promise<number>)[] = [
      estimateTokens,
      async (t: string) => (t.match(/\S+/g) ?? []).length + Math.ceil(t.length / 50),
    ];
    const long = 'lorem ipsum dolor sit amet '.repeat(400) + 'THE-END?';
    for (const countTokens of counters) {
      for (let contextSize = 300; contextSize <= 6000; contextSize += 137) {
        for (const maxTokens of [0, 64, 200]) {
          for (const histLength of [0, 3, 40]) {
            const messages = history(histLength, 25);
            if (contextSize % 3 === 0) messages[messages.length - 1] = { role: 'user', text: long };
            const input = base({ contextSize, maxTokens, history: messages, countTokens });
            const built = await buildPrompt(input);
            const sync = async (t: string) => await countTokens(t);
            let used = 0;
            for (const m of built.messages) used += (await sync(m.content)) + MESSAGE_OVERHEAD_TOKENS;
            expect(used, `context ${contextSize}, reply ${maxTokens}`).toBeLessThanOrEqual(contextSize - maxTokens);
            expect(used).toBe(built.tokens);
            const newest = built.messages.filter((m) => m.role === 'user').at(-1)!;
            if (messages.at(-1)!.text === long) expect(newest.content.endsWith('THE-END?')).toBe(true);
            else expect(newest.content).toBe('NEWEST what about the lantern, Mira?');
            expect(built.messages[0]!.content).toContain('Platform rules');
            // historyIncluded points at a contiguous tail of the history
            const expectedTurns = messages
              .slice(messages.length - built.historyIncluded)
              .filter((m) => m.role !== 'system').length;
            expect(built.messages.filter((m) => m.role !== 'system')).toHaveLength(expectedTurns);
            if (built.historyIncluded < messages.length) {
              const leftOut = messages.slice(0, messages.length - built.historyIncluded);
              if (leftOut.some((m) => m.role !== 'system')) expect(built.truncated).toBe(true);
            }
          }
        }
      }
    }
  });

  it('keeps the newest messages and leaves out the oldest when the context is small', async () => {
    const messages = history(200, 20);
    const built = await buildPrompt(base({ history: messages, contextSize: 2048, maxTokens: 256 }));
    expect(built.truncated).toBe(true);
    expect(built.historyIncluded).toBeGreaterThan(5);
    expect(built.historyIncluded).toBeLessThan(messages.length);
    const text = allText(built.messages);
    expect(text).toContain('#199 ');
    expect(text).not.toContain('#0 user');
    expect(total(built.messages, estimateTokens)).toBeLessThanOrEqual(2048 - 256);
  });

  it('shortens the card before dropping the newest message when the card is huge', async () => {
    const huge = { ...character, description: 'A very long backstory. '.repeat(3000) };
    const built = await buildPrompt(base({ character: huge, contextSize: 1024, maxTokens: 128 }));
    expect(total(built.messages, estimateTokens)).toBeLessThanOrEqual(1024 - 128);
    expect(built.messages.at(-1)!.role === 'user' || built.messages.at(-2)!.role === 'user').toBe(true);
    expect(allText(built.messages)).toContain('NEWEST what about the lantern, Mira?');
    expect(built.messages[0]!.content).toContain('Platform rules');
  });

  it('rejects a budget too small for any prompt', async () => {
    await expect(buildPrompt(base({ contextSize: 100, maxTokens: 90 }))).rejects.toThrow(RangeError);
  });

  it('answers in the interface language by default, naming it', async () => {
    for (const [locale, name] of [
      ['en', 'English'],
      ['ch', 'Chinese'],
      ['es', 'Spanish'],
      ['ru', 'Russian'],
    ] as const) {
      const built = await buildPrompt(base({ locale }));
      expect(built.messages[0]!.content).toMatch(new RegExp(`Answer in ${name}.*another language`, 's'));
    }
  });
});

describe('truncateToTokens', () => {
  it('keeps the start or the end within the limit', async () => {
    const count = async (t: string) => estimateTokens(t);
    const text = 'abcd '.repeat(100);
    const start = await truncateToTokens(text, 10, count);
    expect(estimateTokens(start)).toBeLessThanOrEqual(10);
    expect(start.startsWith('abcd')).toBe(true);
    const end = await truncateToTokens('x' + text + 'END', 10, count, 'end');
    expect(end.endsWith('END')).toBe(true);
    expect(await truncateToTokens('short', 10, count)).toBe('short');
    expect(await truncateToTokens('long text', 0, count)).toBe('');
  });
});

describe('historyReadBudget', () => {
  it('reads the largest prompt budget of the catalogue and a quarter more, never more than a context', () => {
    // 4096-token context, 2000 for the reply: the prompt holds at most 2096.
    expect(historyReadBudget([4096], 2000)).toBe(2620);
    // The largest context counts; the margin never reads past a whole context.
    expect(historyReadBudget([4096, 32_000], 2000)).toBe(32_000);
    expect(historyReadBudget([8192], 512)).toBe(8192);
    expect(historyReadBudget([32_000], 16_000)).toBe(20_000);
    // A reply as long as the context: the builder's smallest budget.
    expect(historyReadBudget([1024], 1024)).toBe(40);
  });
});

describe('long-term memories in the prompt', () => {
  const longTermMemory = {
    ids: ['m1', 'm2', 'm3'],
    lines: [
      '- {{user}} has a cat called Fog.',
      '- {{user}} met {{char}} at the fair. (2026-05-01)',
      '- {{user}} hates rain.',
    ],
  };

  it('holds them as their own section, names replaced, and reports every id kept', async () => {
    const built = await buildPrompt(base({ longTermMemory }));
    const system = built.messages[0]!.content;
    expect(system).toContain(
      '# What Mira remembers about Alex (long-term memory)\n- Alex has a cat called Fog.\n- Alex met Mira at the fair. (2026-05-01)',
    );
    expect(built.memoryIds).toEqual(['m1', 'm2', 'm3']);
    expect((await buildPrompt(base())).memoryIds).toEqual([]);
  });

  it('reports only the memories whose lines survive when the section gives way', async () => {
    const tight = await buildPrompt(
      base({ longTermMemory, contextSize: 160, maxTokens: 32, history: history(1, 5), memory: '' }),
    );
    const system = tight.messages.find((m) => m.role === 'system')?.content ?? '';
    for (const [i, id] of longTermMemory.ids.entries()) {
      const line = longTermMemory.lines[i]!.replaceAll('{{user}}', 'Alex').replaceAll('{{char}}', 'Mira');
      expect(tight.memoryIds.includes(id)).toBe(system.split('\n').includes(line));
    }
  });
});
