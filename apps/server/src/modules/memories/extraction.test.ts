import { describe, expect, it } from 'vitest';
import { extractionPrompt, MEMORY_OPS_JSON_SCHEMA, parseOps } from './extraction.js';
import { memoryRefusal } from './safety.js';

describe('the extraction answer', () => {
  it('keeps each valid operation, drops invalid ones, and refuses what is not operations', () => {
    const answer = JSON.stringify({
      operations: [
        {
          op: 'add',
          memory: null,
          kind: 'user',
          subject: 'user',
          text: 'Alex likes tea.',
          importance: 9,
          event_date: 'soon',
          sources: [1],
        },
        {
          op: 'update',
          memory: 2,
          kind: null,
          subject: 'user',
          text: 'Alex likes green tea.',
          importance: 3,
          event_date: null,
          sources: [],
        },
        {
          op: 'forget',
          memory: 1,
          kind: null,
          subject: null,
          text: null,
          importance: null,
          event_date: null,
          sources: [2],
        },
        {
          op: 'add',
          memory: null,
          kind: 'nonsense',
          subject: 'user',
          text: 'x',
          importance: 3,
          event_date: null,
          sources: [],
        },
        {
          op: 'add',
          memory: null,
          kind: 'user',
          subject: 'user',
          text: '',
          importance: 3,
          event_date: null,
          sources: [],
        },
      ],
    });
    const ops = parseOps(`Sure! ${answer}`)!;
    expect(ops.map((o) => o.op)).toEqual(['add', 'update', 'forget']);
    expect(ops[0]).toMatchObject({ importance: 3, event_date: null });
    expect(parseOps('no JSON here')).toBeNull();
    expect(parseOps('{"ops": []}')).toBeNull();
  });

  it('asks in the user language and numbers messages and known memories', () => {
    const [system, user] = extractionPrompt({
      characterName: 'Mia',
      userName: 'Alex',
      locale: 'ru',
      today: '2026-11-27',
      messages: [{ role: 'user', text: 'У меня есть кошка.' }],
      known: [{ text: 'Alex lives in Kazan.', kind: 'user', eventDate: null }],
    });
    expect(system!.content).toContain('Russian');
    expect(user!.content).toContain('M1 [user] Alex lives in Kazan.');
    expect(user!.content).toContain('1. Alex: У меня есть кошка.');
  });

  it('is a JSON schema the local engine turns into a grammar', async () => {
    const { getLlama } = await import('node-llama-cpp');
    const llama = await getLlama({ gpu: false, build: 'never' });
    try {
      const grammar = await llama.createGrammarForJsonSchema(MEMORY_OPS_JSON_SCHEMA as never);
      expect(grammar.grammar).toContain('operations');
    } finally {
      await llama.dispose();
    }
  });
});

describe('memory safety', () => {
  it("refuses minors and third parties' intimate details, in five languages", () => {
    expect(memoryRefusal("Alex's son is 9 years old.", 'user')).toBe('minor');
    expect(memoryRefusal('Alex has a cat.', 'user')).toBeNull();
    expect(memoryRefusal('Her boss is pregnant.', 'third_party')).toBe('third_party_intimate');
    expect(memoryRefusal('Su vecina tiene un amante.', 'third_party')).toBe('third_party_intimate');
    expect(memoryRefusal('Sein Kollege ist schwanger.', 'third_party')).toBe('third_party_intimate');
    expect(memoryRefusal('Её подруга беременна.', 'third_party')).toBe('third_party_intimate');
    expect(memoryRefusal('他的同事出轨了。', 'third_party')).toBe('third_party_intimate');
    expect(memoryRefusal('Her boss works in Madrid.', 'third_party')).toBeNull();
  });

  it('refuses a relative under 18 said the Russian way ("Моей дочери 12 лет"), not an adult or a span of years', () => {
    expect(memoryRefusal('Моей дочери 12 лет, она ходит в школу.', 'user')).toBe('minor');
    expect(memoryRefusal('Её сыну уже 9 лет.', 'third_party')).toBe('minor');
    expect(memoryRefusal('Младшему брату 15 лет.', 'user')).toBe('minor');
    expect(memoryRefusal('Моей сестре 30 лет.', 'user')).toBeNull();
    expect(memoryRefusal('Сэм работает медсестрой 10 лет.', 'user')).toBeNull();
    expect(memoryRefusal('С братом 10 лет назад они ездили в Лиссабон.', 'user')).toBeNull();
  });
});
