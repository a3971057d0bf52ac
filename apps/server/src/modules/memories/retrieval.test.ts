import { describe, expect, it } from 'vitest';
import type { SearchCandidate, ShownMemory } from './memories.repository.js';
import { drewOn, memoryLine, rankMemories, selectForPrompt } from './retrieval.js';
import { dedupeKey, searchTerms } from './terms.js';
import { PLAIN_USER_MEMORY } from '../../../test/plain-memory.js';

const now = new Date('2026-11-27T12:00:00Z');
let n = 0;
function memory(text: string, extra: Partial<ShownMemory> = {}): ShownMemory {
  n++;
  return {
    id: `m${n}`,
    userId: 'u',
    botId: 'b',
    ...PLAIN_USER_MEMORY,
    sourceMessageIds: [],
    text,
    dedupeKey: dedupeKey(text),
    createdAt: now,
    updatedAt: now,
    ...extra,
  };
}
function candidate(m: ShownMemory, query: string, embedding: number[] | null = null): SearchCandidate {
  const q = new Set(searchTerms(query));
  const terms = searchTerms(m.text);
  return { ...m, matched: terms.filter((x) => q.has(x)), termCount: terms.length, embedding };
}

describe('search terms', () => {
  it('stems Latin and Cyrillic words, drops stop words, and cuts Chinese into bigrams', () => {
    expect(searchTerms('The sisters of Alex')).toEqual(['siste', 'alex']);
    expect(searchTerms('Саша боится собаку')).toEqual(['саша', 'боитс', 'собак']);
    expect(searchTerms('Él vive en Córdoba')).toEqual(['vive', 'cordo']);
    expect(searchTerms('我喜欢爬山')).toEqual(['我喜', '喜欢', '欢爬', '爬山']);
  });

  it('drops stop words written with marks as the text is compared: "für" as "fur"', () => {
    expect(searchTerms('Für welchen Sport begeistert sich meine Freundin?')).toEqual([
      'welch',
      'sport',
      'begei',
      'sich',
      'freun',
    ]);
    expect(searchTerms('Más café para él')).toEqual(['cafe']);
  });
});

describe('retrieval order and budget', () => {
  it('ranks rare shared terms above common ones, then importance and recency', () => {
    const query = 'my guitar and my band';
    const guitar = memory('Alex plays the guitar in a band.');
    const band = memory('Alex likes a band.', { importance: 5 });
    const old = memory('Alex plays the guitar in a band.', { updatedAt: new Date('2025-01-01T00:00:00Z') });
    const noise = Array.from({ length: 20 }, (_, i) => memory(`The band number ${i} played.`));
    const ranked = rankMemories({
      pinned: [],
      candidates: [guitar, band, old, ...noise].map((m) => candidate(m, query)),
      total: 100,
      now,
    });
    expect(ranked[0]!.memory.id).toBe(guitar.id);
    expect(ranked[1]!.memory.id).toBe(old.id);
    expect(ranked.findIndex((r) => r.memory.id === band.id)).toBeLessThan(
      ranked.findIndex((r) => r.memory.id === noise[0]!.id),
    );
  });

  it('adds memories close by embedding that share no term', () => {
    const cat = { ...memory('Alex has a kitten.'), embedding: [1, 0, 0] };
    const ranked = rankMemories<typeof cat>({
      pinned: [],
      candidates: [],
      recent: [cat],
      queryEmbedding: [0.9, 0.1, 0],
      total: 10,
      now,
    });
    expect(ranked.map((r) => r.memory.id)).toEqual([cat.id]);
    const far = rankMemories<typeof cat>({
      pinned: [],
      candidates: [],
      recent: [cat],
      queryEmbedding: [0, 1, 0],
      total: 10,
      now,
    });
    expect(far).toEqual([]);
  });

  it('puts pinned memories first and keeps within the token budget and the count', () => {
    const pinned = [memory('The user is called Alex.', { pinned: true })];
    const ranked = Array.from({ length: 30 }, (_, i) => ({
      memory: memory(`Relevant fact number ${i} about Alex.`),
      score: 30 - i,
    }));
    const chosen = selectForPrompt(pinned, ranked, 40, 12);
    expect(chosen[0]).toBe(pinned[0]);
    const tokens = chosen.reduce((s, m) => s + Math.ceil(memoryLine(m).length / 4) + 1, 0);
    expect(tokens).toBeLessThanOrEqual(40);
    expect(chosen.length).toBeGreaterThan(2);
    expect(selectForPrompt(pinned, ranked, 10_000, 12)).toHaveLength(12);
    expect(memoryLine(memory('We met at the fair.', { kind: 'event', eventDate: '2026-05-01' }))).toBe(
      '- We met at the fair. (2026-05-01)',
    );
  });
});

describe('drew on (overlap)', () => {
  it('marks a memory whose terms the reply uses', () => {
    expect(drewOn('Alex plays the guitar in a band called Blue Owls.', 'Your band Blue Owls!')).toBe(true);
    expect(drewOn('Alex plays the guitar in a band called Blue Owls.', 'Hello Alex.')).toBe(false);
    expect(drewOn('小明喜欢爬山。', '你上周末又去爬山了吗？')).toBe(false);
    expect(drewOn('小明喜欢爬山。', '小明，你喜欢爬山吧！')).toBe(true);
  });
});
