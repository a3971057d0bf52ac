/**
 * Regular-expression keys run in linear time (docs/lorebooks.md "Regular expressions are safe
 * to run"): a key that passes the star-height check can still backtrack exponentially
 * (`^(a|a)*$`) or polynomially (`\s*\s*\s*x`) on V8's engine; a scanned text of the full
 * 20 000 characters must still be read in a blink.
 */
import { describe, expect, it } from 'vitest';
import { keyPattern, LORE_SCAN_MAX_CHARS, regexKeyProblem } from './lore-engine.js';

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
