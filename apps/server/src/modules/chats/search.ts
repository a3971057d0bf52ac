/**
 * Search in a chat (issue 29, docs/chat.md "Search in a chat"): PostgreSQL full-text search on
 * the index `messages_search_idx` — `to_tsvector('simple', message_search_text(text))`, the text
 * lower-cased with every Han character a word of its own. A query's word in Latin or Cyrillic
 * script is reduced to its stem by the Snowball stemmer of its language (Cyrillic: Russian;
 * Latin: the reader's language — English, Spanish or German; English for the others) and
 * matched as a prefix (`кошку` → `кошк:*` finds кошка, кошкой); a run of Han characters is a
 * phrase of single characters (`咖啡馆` → `咖 <-> 啡 <-> 馆`). Every word must be found.
 */
import type { Locale } from '@reverie/shared';
import type { Database } from '../../db/client.js';
import { lexize, searchMessages } from './branches.repository.js';
import type { MessageWithAlts } from './messages.repository.js';

const HAN_RUN = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+/gu;
const WORD = /[\p{L}\p{N}]+/gu;
const CYRILLIC = /\p{Script=Cyrillic}/u;
const MAX_TERMS = 8;
const MAX_HITS = 50;

const STEMMER: Record<Locale, string> = {
  en: 'english_stem',
  es: 'spanish_stem',
  de: 'german_stem',
  ru: 'english_stem',
  ch: 'english_stem',
};

/** A query's term: a word's stem (matched as a prefix) or a phrase of Han characters. */
export type SearchTerm = { kind: 'prefix'; text: string; stem?: string } | { kind: 'han'; text: string };

/**
 * The text lower-cased with each character keeping its length, so that an index in it is an
 * index in the text: `toLowerCase` writes the Turkish `İ` as `i` and a combining dot (two code
 * units for one), which moved every highlight after it by one. Here `İ` is `i`.
 */
export function lowerKeepingLength(text: string): string {
  const lower = text.toLowerCase();
  if (lower.length === text.length) return lower;
  let out = '';
  for (const ch of text) {
    const l = ch.toLowerCase();
    out += l.length === ch.length ? l : l.slice(0, ch.length);
  }
  return out;
}

/** The words and Han runs of a query, at most eight, lower-cased. */
export function queryWords(q: string): SearchTerm[] {
  const terms: SearchTerm[] = [];
  const lower = lowerKeepingLength(q);
  for (const run of lower.match(HAN_RUN) ?? []) terms.push({ kind: 'han', text: run });
  const rest = lower.replace(HAN_RUN, ' ');
  for (const word of rest.match(WORD) ?? []) terms.push({ kind: 'prefix', text: word });
  return terms.slice(0, MAX_TERMS);
}

/** The words reduced to their stems by PostgreSQL's Snowball dictionaries (one round trip). */
async function stems(db: Database, terms: SearchTerm[], locale: Locale): Promise<SearchTerm[]> {
  const words = terms.filter((t) => t.kind === 'prefix');
  if (words.length === 0) return terms;
  const dicts = words.map((w) => (CYRILLIC.test(w.text) ? 'russian_stem' : STEMMER[locale]));
  const found = await lexize(
    db,
    words.map((w, i) => ({ word: w.text, dictionary: dicts[i]! })),
  );
  let next = 0;
  return terms.map((t) => (t.kind === 'prefix' ? { ...t, stem: found[next++] ?? t.text } : t));
}

/** The `tsquery` of the terms (their characters are letters and digits only: nothing to escape). */
export function tsquery(terms: SearchTerm[]): string {
  return terms
    .map((t) =>
      t.kind === 'han'
        ? `(${[...t.text].map((c) => `'${c}'`).join(' <-> ')})`
        : `('${t.text}':*${t.stem && t.stem !== t.text ? ` | '${t.stem}':*` : ''})`,
    )
    .join(' & ');
}

/** Where the terms are in a text: [start, end) ranges, a word from its stem to the word's end. */
export function highlightRanges(text: string, terms: SearchTerm[]): [number, number][] {
  const lower = lowerKeepingLength(text);
  const ranges: [number, number][] = [];
  for (const term of terms) {
    if (term.kind === 'han') {
      for (let at = lower.indexOf(term.text); at >= 0; at = lower.indexOf(term.text, at + term.text.length))
        ranges.push([at, at + term.text.length]);
      continue;
    }
    for (const match of lower.matchAll(WORD)) {
      if (match[0].startsWith(term.text) || (term.stem && match[0].startsWith(term.stem)))
        ranges.push([match.index, match.index + match[0].length]);
    }
  }
  ranges.sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const range of ranges) {
    const last = merged.at(-1);
    if (last && range[0] <= last[1]) last[1] = Math.max(last[1], range[1]);
    else merged.push([...range]);
  }
  return merged;
}

/** The newest messages of the chat's history that match the query, with the found words. */
export async function searchChat(
  db: Database,
  chatId: string,
  q: string,
  locale: Locale,
): Promise<{ row: MessageWithAlts; highlights: [number, number][] }[]> {
  const terms = await stems(db, queryWords(q), locale);
  if (terms.length === 0) return [];
  const rows = await searchMessages(db, chatId, tsquery(terms), MAX_HITS);
  return (
    rows
      .map((row) => ({ row, highlights: highlightRanges(row.text, terms) }))
      // A shared message this chat edited is found by the shared text: kept when its own text matches too.
      .filter((hit) => hit.highlights.length > 0)
  );
}
