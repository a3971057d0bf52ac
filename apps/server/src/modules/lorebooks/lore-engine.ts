/**
 * Lorebook activation (docs/lorebooks.md "Activation"): pure functions from books and the
 * newest messages to the entries that go into a prompt, and why. A book's keys are compiled
 * once per book version (`LoreCompiler`): a derived value of the stored row, so an in-process
 * cache is safe with any number of replicas (a replica that has not seen a version compiles it).
 */
import { RE2JS } from 're2js';
import safeRegex from 'safe-regex2';
import {
  isRegexKey,
  LORE_REGEX_KEYS_TESTED,
  LORE_REGEX_LITERAL as REGEX_LITERAL,
  type LorePosition,
  type SelectiveLogic,
} from '@reverie/shared';

/** How many of the newest messages are scanned for keys when the book does not say. */
export const DEFAULT_LORE_SCAN_DEPTH = 4;
/** The most characters of the newest messages a book's keys are tested on. */
export const LORE_SCAN_MAX_CHARS = 20_000;

/** An entry's fields that activation reads, as stored (`EntryValues` adds its `extensions`). */
export interface LoreEntryFields {
  uid: number;
  keys: string[];
  secondaryKeys: string[];
  selectiveLogic: SelectiveLogic;
  content: string;
  comment: string;
  constant: boolean;
  enabled: boolean;
  insertionOrder: number;
  position: LorePosition;
  depth: number;
  /** 0–100; 100: always goes in when it fires. */
  probability: number;
  caseSensitive: boolean;
  useRegex: boolean;
}

/** One entry as activation reads it (a stored entry, or a card's book read defensively). */
export interface LoreEntryInput extends LoreEntryFields {
  /** The stored entry's id; for a card's book never stored, `card:<index>`. */
  id: string;
  /** A card's `priority` (higher wins the budget); 0 for stored entries. */
  priority: number;
}

export interface LoreBookInput {
  id: string;
  name: string;
  scanDepth: number;
  /** 0: only the prompt's share limits it. */
  tokenBudget: number;
  entries: LoreEntryInput[];
}

/** What a compiled key answers: whether it is in the scanned text. */
export interface KeyMatcher {
  test(text: string): boolean;
}

/**
 * A key ready to be tested. A plain key's pattern is made only when the scanned text holds
 * every word of it (`words`) — or, for a key with a Han character, its text (`part`) — so that
 * a send tests a few patterns, not every key of every book: a book of 500 entries with 50 keys
 * each made 25 000 patterns and ran them all, ≈ 10 s of the event loop at each send.
 */
interface CompiledKey {
  key: string;
  /** The key's words, folded (`fold`); null when the key has none or is not a plain key. */
  words: string[] | null;
  /** For a plain key with a Han character (found as a substring): its trimmed text, folded. */
  part: string | null;
  caseSensitive: boolean;
  useRegex: boolean;
  /** Made on first need; null when the key cannot match anything (or is not tested). */
  pattern?: KeyMatcher | null;
}

/**
 * Text folded for the words' check: two spellings a case-insensitive pattern takes as equal
 * fold to the same text (`ſ` and `s`, `ẞ` and `ß` → `ss`, `K` and the Kelvin sign).
 */
const fold = (text: string) => text.toLowerCase().toUpperCase().toLowerCase();
const WORDS = /[\p{L}\p{N}]+/gu;
const HAN = /\p{Script=Han}/u;

/** The scanned text of a book, with its folded words and text (made once per scan depth). */
interface ScanText {
  text: string;
  words: Set<string>;
  folded: string;
}

function scanText(text: string): ScanText {
  const folded = fold(text);
  return { text, folded, words: new Set(folded.match(WORDS)) };
}

function compileKey(key: string, caseSensitive: boolean, useRegex: boolean): CompiledKey {
  const plain = !useRegex && !REGEX_LITERAL.test(key);
  const trimmed = key.trim();
  const han = plain && HAN.test(trimmed);
  const words = plain && !han ? fold(trimmed).match(WORDS) : null;
  return { key, words: words?.length ? words : null, part: han ? fold(trimmed) : null, caseSensitive, useRegex };
}

/** Whether `key` is in the scanned text: the cheap checks first, the pattern (made once) last. */
function keyFound(key: CompiledKey, scan: ScanText): boolean {
  if (key.words && !key.words.every((word) => scan.words.has(word))) return false;
  if (key.part !== null && !scan.folded.includes(key.part)) return false;
  if (key.pattern === undefined) key.pattern = keyPattern(key.key, key.caseSensitive, key.useRegex);
  return key.pattern?.test(scan.text) ?? false;
}

interface CompiledEntry extends LoreEntryInput {
  index: number;
  primary: CompiledKey[];
  secondary: CompiledKey[];
}

export interface CompiledBook extends Omit<LoreBookInput, 'entries'> {
  entries: CompiledEntry[];
}

/** Why an entry that fired went in or not. */
export type LoreStatus = 'inserted' | 'lost_roll' | 'over_budget';

/** An entry that fired: constant, or a key found (and its secondary keys satisfied). */
export interface FiredEntry {
  bookId: string;
  bookName: string;
  entryId: string;
  uid: number;
  /** The entry's comment, else its first key. */
  label: string;
  content: string;
  position: LorePosition;
  depth: number;
  insertionOrder: number;
  constant: boolean;
  /** The primary key found (null for a constant entry). */
  key: string | null;
  /** The secondary key found (for the `and_*` logics). */
  secondaryKey: string | null;
  probability: number;
  /** The roll in [0, 100) for an entry with a chance below 100; null when none was made. */
  roll: number | null;
  status: LoreStatus;
  tokens: number;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A regular expression of a key on RE2's engine (re2js): linear time whatever the pattern, so
 * no key can hold the event loop (V8's backtracking engine takes exponential time on
 * `^(a|a)*$`, which passes the star-height check). Written in JavaScript's syntax;
 * back-references and look-ahead cannot be run in linear time (`unsupported_regex`).
 */
function linearRegex(source: string, flags: string): KeyMatcher {
  let re2Flags = RE2JS.LOOKBEHINDS;
  if (flags.includes('i')) re2Flags |= RE2JS.CASE_INSENSITIVE;
  if (flags.includes('m')) re2Flags |= RE2JS.MULTILINE;
  if (flags.includes('s')) re2Flags |= RE2JS.DOTALL;
  // RE2 names a script or category alone: `\p{Han}`, not `\p{Script=Han}`.
  const named = source.replace(
    /\\([pP])\{(?:Script|sc|Script_Extensions|scx|General_Category|gc)=(\w+)\}/g,
    '\\$1{$2}',
  );
  return RE2JS.compile(RE2JS.translateRegExp(named), re2Flags);
}

/**
 * Whether a regular-expression key is accepted: it compiles in JavaScript's syntax, its star
 * height is at most 1 (a clear message for the classic catastrophic shape), and RE2 runs it.
 */
export function regexKeyProblem(
  key: string,
  useRegex: boolean,
): 'invalid_regex' | 'unsafe_regex' | 'unsupported_regex' | null {
  const literal = REGEX_LITERAL.exec(key);
  if (!literal && !useRegex) return null;
  const source = literal ? literal[1]! : key;
  const flags = literal ? literal[2]! : 'u';
  try {
    new RegExp(source, flags);
  } catch {
    return 'invalid_regex';
  }
  if (!safeRegex(source)) return 'unsafe_regex';
  try {
    linearRegex(source, flags);
  } catch {
    return 'unsupported_regex';
  }
  return null;
}

/**
 * A key's matcher: a regular expression when written `/…/flags` or the entry says `use_regex`
 * (only an accepted one: `regexKeyProblem`; run by RE2, `linearRegex`); otherwise a whole word
 * in alphabetic scripts and a substring in CJK text (an escaped literal: V8 runs it in linear time).
 */
export function keyPattern(key: string, caseSensitive: boolean, useRegex: boolean): KeyMatcher | null {
  const flags = caseSensitive ? 'u' : 'iu';
  const literal = REGEX_LITERAL.exec(key);
  if (literal || useRegex) {
    if (regexKeyProblem(key, useRegex)) return null;
    return literal ? linearRegex(literal[1]!, literal[2]!) : linearRegex(key, flags);
  }
  const trimmed = key.trim();
  if (!trimmed) return null;
  const before = /^[\p{L}\p{N}]/u.test(trimmed) && !/^\p{Script=Han}/u.test(trimmed) ? '(?<![\\p{L}\\p{N}])' : '';
  const after = /[\p{L}\p{N}]$/u.test(trimmed) && !/\p{Script=Han}$/u.test(trimmed) ? '(?![\\p{L}\\p{N}])' : '';
  return new RegExp(`${before}${escapeRegExp(trimmed)}${after}`, flags);
}

/** Compiles a book's keys (the work `LoreCompiler` caches per book version). */
export function compileBook(book: LoreBookInput): CompiledBook {
  const compiled: CompiledBook = {
    ...book,
    entries: book.entries
      .map((entry, index) => ({ entry, index }))
      .filter(({ entry }) => entry.enabled && entry.content.trim() !== '')
      .map(({ entry, index }) => ({
        ...entry,
        content: entry.content.trim(),
        index,
        primary: entry.keys.map((key) => compileKey(key, entry.caseSensitive, entry.useRegex)),
        secondary: entry.secondaryKeys.map((key) => compileKey(key, entry.caseSensitive, entry.useRegex)),
      })),
  };
  // Regular-expression keys past LORE_REGEX_KEYS_TESTED are never found.
  let regexKeys = 0;
  for (const entry of compiled.entries)
    for (const key of [...entry.primary, ...entry.secondary])
      // (RE2 in JavaScript runs one in ≈ 0.2 ms on a full scan: 25 000 of them held a send ≈ 4 s.)
      if (isRegexKey(key.key, key.useRegex) && ++regexKeys > LORE_REGEX_KEYS_TESTED) key.pattern = null;
  return compiled;
}

/**
 * The compiled books of this process, keyed by `<book id>:<version>` (a stored book's version
 * goes up with every change): at most `max`, the least recently used dropped first.
 */
export class LoreCompiler {
  private readonly cache = new Map<string, CompiledBook>();
  /** How many books were compiled (tests: a second send compiles nothing). */
  compiled = 0;

  constructor(private readonly max = 500) {}

  get(key: string, load: () => LoreBookInput): CompiledBook {
    const hit = this.cache.get(key);
    if (hit) {
      this.cache.delete(key);
      this.cache.set(key, hit);
      return hit;
    }
    const book = compileBook(load());
    this.compiled++;
    this.cache.set(key, book);
    if (this.cache.size > this.max) this.cache.delete(this.cache.keys().next().value!);
    return book;
  }

  /** A compiled book of this version, if this process has it. */
  has(key: string): boolean {
    return this.cache.has(key);
  }
}

const firstMatch = (keys: CompiledKey[], text: ScanText): string | null =>
  keys.find((k) => keyFound(k, text))?.key ?? null;

/** Whether an entry fires on `text`, and the keys that made it. */
function fires(entry: CompiledEntry, text: ScanText): { key: string | null; secondaryKey: string | null } | null {
  if (entry.constant) return { key: null, secondaryKey: null };
  const key = firstMatch(entry.primary, text);
  if (key === null) return null;
  if (entry.secondary.length === 0) return { key, secondaryKey: null };
  switch (entry.selectiveLogic) {
    case 'and_any': {
      const secondaryKey = firstMatch(entry.secondary, text);
      return secondaryKey === null ? null : { key, secondaryKey };
    }
    case 'and_all':
      return entry.secondary.every((k) => keyFound(k, text))
        ? { key, secondaryKey: entry.secondary.map((k) => k.key).join(', ') }
        : null;
    case 'not_any':
      return firstMatch(entry.secondary, text) === null ? { key, secondaryKey: null } : null;
    case 'not_all':
      return entry.secondary.every((k) => keyFound(k, text)) ? null : { key, secondaryKey: null };
  }
}

/**
 * The entries that fire in `books` on the newest messages `scanned` (oldest first), and which
 * go in: each book scans its own `scanDepth` newest messages; an entry with a chance below 100
 * is rolled once (`random`, in the books' and entries' order); then, by importance (constant,
 * priority, lower order), entries go in while their book's `tokenBudget` and `limit` (the
 * prompt's share for lore) hold. Answers every entry that fired, in insertion order.
 */
export async function activateLore(
  books: CompiledBook[],
  scanned: string[],
  limit: number,
  countTokens: (text: string) => Promise<number>,
  random: () => number = Math.random,
): Promise<FiredEntry[]> {
  const fired: (FiredEntry & { priority: number; bookIndex: number; index: number })[] = [];
  const texts = new Map<number, ScanText>();
  books.forEach((book, bookIndex) => {
    const depth = Math.max(1, Math.floor(book.scanDepth || DEFAULT_LORE_SCAN_DEPTH));
    let text = texts.get(depth);
    if (!text) {
      text = scanText(scanned.slice(-depth).join('\n').slice(-LORE_SCAN_MAX_CHARS));
      texts.set(depth, text);
    }
    for (const entry of book.entries) {
      const why = fires(entry, text);
      if (!why) continue;
      const roll = entry.probability < 100 ? random() * 100 : null;
      fired.push({
        bookId: book.id,
        bookName: book.name,
        entryId: entry.id,
        uid: entry.uid,
        label: entry.comment.trim() || entry.keys[0] || '',
        content: entry.content,
        position: entry.position,
        depth: entry.depth,
        insertionOrder: entry.insertionOrder,
        constant: entry.constant,
        key: why.key,
        secondaryKey: why.secondaryKey,
        probability: entry.probability,
        roll,
        status: roll !== null && roll >= entry.probability ? 'lost_roll' : 'inserted',
        tokens: 0,
        priority: entry.priority,
        bookIndex,
        index: entry.index,
      });
    }
  });
  const byImportance = fired
    .filter((f) => f.status === 'inserted')
    .sort(
      (a, b) =>
        Number(b.constant) - Number(a.constant) ||
        b.priority - a.priority ||
        a.insertionOrder - b.insertionOrder ||
        a.bookIndex - b.bookIndex ||
        a.index - b.index,
    );
  const usedByBook = new Map<number, number>();
  let used = 0;
  for (const entry of byImportance) {
    entry.tokens = await countTokens(entry.content);
    const book = books[entry.bookIndex]!;
    const bookUsed = usedByBook.get(entry.bookIndex) ?? 0;
    if (used + entry.tokens > limit || (book.tokenBudget > 0 && bookUsed + entry.tokens > book.tokenBudget)) {
      entry.status = 'over_budget';
      continue;
    }
    used += entry.tokens;
    usedByBook.set(entry.bookIndex, bookUsed + entry.tokens);
  }
  return fired
    .sort((a, b) => a.insertionOrder - b.insertionOrder || a.bookIndex - b.bookIndex || a.index - b.index)
    .map(({ priority: _p, bookIndex: _b, index: _i, ...entry }) => entry);
}
