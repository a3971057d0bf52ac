import type { Locale } from '@reverie/shared';

/** A Han character (CJK unified ideographs and extension A), the range the migration's `reverie_han_grams` uses. */
const HAN = /[\u3400-\u9fff]/u;
const HAN_RUNS = /[\u3400-\u9fff]+/gu;
const WORDS = /[\p{L}\p{N}]+/gu;

/** At most this many words of a search are used (each is several alternatives in the query). */
export const SEARCH_WORDS_MAX = 5;
const HAN_GRAMS_MAX = 24;
const WORD_MAX = 40;

/** PostgreSQL's text search configuration for each interface language (Chinese: none, see `hanGrams`). */
export const TEXT_SEARCH_CONFIG: Record<Locale, 'english' | 'spanish' | 'german' | 'russian' | 'simple'> = {
  en: 'english',
  es: 'spanish',
  de: 'german',
  ru: 'russian',
  ch: 'simple',
};

export interface SearchTerms {
  /** Lower-case words of letters or digits (not Han), at most SEARCH_WORDS_MAX, in the search's order. */
  words: string[];
  /** The Han characters' grams, as the index holds them: a lone character, or each neighbouring pair. */
  hanGrams: string[];
}

/**
 * The Han grams of a text, as `reverie_han_grams` indexes Chinese (PostgreSQL has no Chinese
 * word parser): a run of one character is that character; a longer run is each pair of
 * neighbours ("宇航员" → 宇航 航员), all of which a matching text must hold.
 */
export function hanGrams(text: string): string[] {
  const grams: string[] = [];
  for (const run of text.match(HAN_RUNS) ?? []) {
    const chars = [...run];
    if (chars.length === 1) grams.push(chars[0]!);
    for (let i = 0; i + 1 < chars.length; i++) grams.push(chars[i]! + chars[i + 1]!);
  }
  return [...new Set(grams)].slice(0, HAN_GRAMS_MAX);
}

/** What a catalogue search looks for; empty when it has no letter or digit. */
export function searchTerms(search: string | undefined): SearchTerms {
  const text = (search ?? '').normalize('NFKC').toLowerCase();
  const words = [...new Set((text.replace(HAN_RUNS, ' ').match(WORDS) ?? []).filter((w) => !HAN.test(w)))]
    .map((w) => w.slice(0, WORD_MAX))
    .slice(0, SEARCH_WORDS_MAX);
  return { words, hanGrams: hanGrams(text) };
}

export const hasSearchTerms = (terms: SearchTerms) => terms.words.length > 0 || terms.hanGrams.length > 0;
