/**
 * Regular-expression keys run in linear time (docs/lorebooks.md "Regular expressions are safe
 * to run"): a key that passes the star-height check can still backtrack exponentially
 * (`^(a|a)*$`) or polynomially (`\s*\s*\s*x`) on V8's engine; a scanned text of the full
 * 20 000 characters must still be read in a blink.
 */
import { describe, expect, it } from 'vitest';
import { LORE_REGEX_KEYS_TESTED } from '@reverie/shared';
import {
  activateLore,
  compileBook,
  type CompiledBook,
  keyPattern,
  type LoreBookInput,
  type LoreEntryInput,
  LORE_SCAN_MAX_CHARS,
  regexKeyProblem,
} from './lore-engine.js';

const timed = (run: () => boolean) => {
  const started = performance.now();
  const result = run();
  return { result, ms: performance.now() - started };
};

describe('regular-expression keys', () => {
  it.each([
    ['/^(a|a)*$/', 'a'.repeat(40) + '!'],
    ['/(\\w|\\d)*x$/', '1'.repeat(40) + '!'],
    ['/\\s*\\s*\\s*\\s*y/', ' '.repeat(LORE_SCAN_MAX_CHARS)],
    ['/.*.*.*=x/', 'a'.repeat(LORE_SCAN_MAX_CHARS)],
  ])('%s cannot freeze the server', (key, text) => {
    expect(regexKeyProblem(key, false)).toBeNull();
    const { result, ms } = timed(() => keyPattern(key, false, false)!.test(text));
    expect(result).toBe(false);
    expect(ms).toBeLessThan(1000);
  });

  it('keeps the meaning of keys: flags, Unicode, case, use_regex', () => {
    const test = (key: string, text: string, caseSensitive = false, useRegex = false) =>
      keyPattern(key, caseSensitive, useRegex)!.test(text);
    expect(test('/\\b(cat|dog)s?\\b/i', 'Two DOGS barked')).toBe(true);
    expect(test('/\\b(cat|dog)s?\\b/', 'Two DOGS barked')).toBe(false);
    expect(test('драк[оа]н', 'Там ДРАКОН', false, true)).toBe(true);
    expect(test('драк[оа]н', 'Там ДРАКОН', true, true)).toBe(false);
    expect(test('/^end$/m', 'line\nend\nmore')).toBe(true);
    expect(test('/a.b/s', 'a\nb')).toBe(true);
    expect(test('/\\p{Script=Han}{2}/u', '我们去海边')).toBe(true);
    expect(test('/\\u0041B/', 'xABx')).toBe(true);
    // Back-references cannot run in linear time: refused at save time with a field message.
    expect(regexKeyProblem('/(a)\\1/', false)).toBe('unsupported_regex');
    expect(regexKeyProblem('/[unclosed/', false)).toBe('invalid_regex');
    expect(regexKeyProblem('/(a+)+$/', false)).toBe('unsafe_regex');
    expect(keyPattern('/(a)\\1/', false, false)).toBeNull();
  });
});

const entryOf = (id: string, keys: string[], extra: Partial<LoreEntryInput> = {}): LoreEntryInput => ({
  id,
  uid: 0,
  keys,
  secondaryKeys: [],
  selectiveLogic: 'and_any',
  content: `lore ${id}`,
  comment: '',
  constant: false,
  enabled: true,
  insertionOrder: 100,
  position: 'after_char',
  depth: 4,
  probability: 100,
  caseSensitive: false,
  useRegex: false,
  priority: 0,
  ...extra,
});
const bookOf = (entries: LoreEntryInput[]): LoreBookInput => ({
  id: 'b',
  name: 'Book',
  scanDepth: 4,
  tokenBudget: 0,
  entries,
});
const firedIds = async (book: CompiledBook, text: string) =>
  (await activateLore([book], [text], 1_000_000, async (t) => t.length)).map((f) => f.entryId);
/** The keys of a compiled book whose pattern was made (by a send that needed it). */
const patternsMade = (book: CompiledBook) =>
  book.entries.flatMap((e) => [...e.primary, ...e.secondary]).filter((k) => k.pattern !== undefined).length;

describe('keys of large books', () => {
  it("a send makes and runs only the patterns of keys whose words are in the text (a full book's 25 000 keys)", async () => {
    const book = compileBook(
      bookOf(
        Array.from({ length: 500 }, (_, i) =>
          entryOf(
            `e${i}`,
            i === 321 ? ['silver lamp', 'lamplighter'] : Array.from({ length: 50 }, (_, k) => `word${i}x${k}`),
          ),
        ),
      ),
    );
    expect(await firedIds(book, 'She lit the Silver Lamp. '.repeat(500))).toEqual(['e321']);
    // Only "silver lamp" had both its words in the text; "lamplighter" and the 24 950 others were never compiled.
    expect(patternsMade(book)).toBe(1);
  });

  it('finds exactly what the keys’ own patterns find', async () => {
    const cases: [key: string, text: string, caseSensitive?: boolean][] = [
      ['Straße', 'Die STRASSE ist lang'],
      ['Straße', 'Die STRAẞE ist lang'],
      ['ſun', 'the SUN rose'],
      ['kelvin', 'KELVIN scale'],
      ['Dr. Who', 'I met dr. who yesterday'],
      ['Dr. Who', 'I met Dr Who yesterday'],
      ['#tag', 'a post with #tags'],
      ['#tag', 'x#tag here'],
      ['lamp', 'lamplight only'],
      ['cat', "the cat's toy"],
      ['Alice', 'alice came', true],
      ['Alice', 'Alice came', true],
      ['咖啡', '我们去咖啡馆吧'],
      ['咖啡馆', '我们去咖啡吧'],
      ['Москва', 'в МОСКВЕ и москва'],
      ['İstanbul', 'istanbul'],
      ['!!', 'wow!!'],
      ['e-mail', 'my E-Mail address'],
    ];
    for (const [key, text, caseSensitive = false] of cases) {
      const book = compileBook(bookOf([entryOf('e', [key], { caseSensitive })]));
      const expected = keyPattern(key, caseSensitive, false)?.test(text) ?? false;
      expect({ key, text, found: (await firedIds(book, text)).length === 1 }).toEqual({ key, text, found: expected });
    }
  });

  it(`tests a book's first ${LORE_REGEX_KEYS_TESTED} regular-expression keys, in the entries' order`, async () => {
    const book = compileBook(
      bookOf([
        entryOf('plain', ['dragon']),
        ...Array.from({ length: LORE_REGEX_KEYS_TESTED + 10 }, (_, i) => entryOf(`r${i}`, [`/drag[o]n/i`])),
      ]),
    );
    const fired = await firedIds(book, 'A DRAGON flew by');
    expect(fired).toEqual(['plain', ...Array.from({ length: LORE_REGEX_KEYS_TESTED }, (_, i) => `r${i}`)]);
  });
});
