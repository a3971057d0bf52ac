import { describe, expect, it } from 'vitest';
import { highlightRanges, lowerKeepingLength, queryWords } from './search.js';

/** Search in a chat: the found words' places in the message's own text (docs/chat.md "Search in a chat"). */
describe('search highlights', () => {
  it('stay on the found word after a letter whose lower case is longer (the Turkish İ)', () => {
    const text = 'İzmir, İstanbul and then the cat';
    expect('İ'.toLowerCase()).toHaveLength(2); // what moved the ranges: İ → i + a combining dot
    const ranges = highlightRanges(text, [{ kind: 'prefix', text: 'cat' }]);
    expect(ranges.map(([from, to]) => text.slice(from, to))).toEqual(['cat']);
    const city = highlightRanges(text, queryWords('İSTANBUL'));
    expect(city.map(([from, to]) => text.slice(from, to))).toEqual(['İstanbul']);
  });

  it('lower-cases each character to one of the same length', () => {
    expect(lowerKeepingLength('İ Ü Σ Я 𐐀')).toBe('i ü σ я 𐐨');
    expect(lowerKeepingLength('Straße')).toBe('straße');
    const text = 'AİBİC';
    expect(lowerKeepingLength(text)).toHaveLength(text.length);
  });
});
