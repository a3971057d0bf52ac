import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BotCreateSchema, BOT_LIMITS } from './contract/bots.js';
import { CardDataSchema } from './contract/cards.js';
import { RegisterBodySchema } from './contract/accounts.js';
import {
  cleanFreeText,
  cleanJsonValue,
  freeText,
  hasControlCharacters,
  hasUnstorableCharacters,
  jsonTooDeep,
  singleLine,
} from './input.js';

describe('single-line fields', () => {
  const name = singleLine().trim().min(1).max(10);

  it('refuse every control character with control_characters', () => {
    for (const bad of [
      'a\u0000',
      'a\u0001',
      'a\t',
      'a\n',
      'a\u007f',
      'a\u0085',
      'a\u2028',
      'a\u202e',
      'a\u2066',
      'a\ud800',
    ]) {
      const result = name.safeParse(bad);
      expect(result.success, JSON.stringify(bad)).toBe(false);
      expect(result.error?.issues.map((i) => i.message)).toEqual(['control_characters']);
    }
  });

  it('accept ordinary text in any script, then apply the field rules', () => {
    expect(name.parse('  Zoë 李 ')).toBe('Zoë 李');
    expect(name.safeParse('x'.repeat(11)).success).toBe(false);
    expect(hasControlCharacters('Emoji 😀 ok')).toBe(false);
  });

  it('usernames refuse control characters', () => {
    const base = { email: 'a@example.test', password: 'secret1', age_confirmed: true };
    const result = RegisterBodySchema.safeParse({ ...base, username: 'ann\u0000' });
    expect(result.error?.issues[0]).toMatchObject({ path: ['username'], message: 'control_characters' });
  });
});

describe('free text', () => {
  it('loses NUL, C0 controls and DEL but keeps \\n \\r \\t', () => {
    expect(cleanFreeText('a\u0000b\u0001c\u001bd\u007fe\nf\r\ng\th')).toBe('abcde\nf\r\ng\th');
  });

  it('turns unpaired surrogates into U+FFFD and keeps pairs', () => {
    expect(cleanFreeText('a\ud800b😀')).toBe('a\ufffdb😀');
    expect(hasUnstorableCharacters(cleanFreeText('\u0000\udfff'))).toBe(false);
  });

  it('is cleaned before the field rules run', () => {
    const text = freeText().trim().min(1, 'required');
    expect(text.safeParse('\u0000 \u0001').error?.issues[0]?.message).toBe('required');
    expect(BotCreateSchema.parse({ name: 'Mia', age: 20, description: 'Kind\u0000.' }).description).toBe('Kind.');
  });
});

describe('JSON values', () => {
  it('cleanJsonValue cleans strings and keys and drops prototype keys', () => {
    const value = JSON.parse('{"a\\u0000":["x\\u0000",{"__proto__":{"p":1},"constructor":1,"ok":1e308}]}');
    expect(cleanJsonValue(value)).toEqual({ a: ['x', { ok: 1e308 }] });
    expect(({} as Record<string, unknown>).p).toBeUndefined();
  });

  it('jsonTooDeep counts brackets outside strings only', () => {
    expect(jsonTooDeep('['.repeat(32) + ']'.repeat(32))).toBe(false);
    expect(jsonTooDeep('['.repeat(33) + ']'.repeat(33))).toBe(true);
    expect(jsonTooDeep(JSON.stringify({ s: '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["\\' }))).toBe(false);
  });
});

describe('card fields', () => {
  it('read absent fields as empty and clean free text', () => {
    const data = CardDataSchema.parse({ name: 'Mia', description: 'Kind\u0000.' });
    expect(data).toMatchObject({ name: 'Mia', description: 'Kind.', first_mes: '', tags: [], character_book: null });
  });

  it('refuse fields over the create limits with field paths', () => {
    const result = CardDataSchema.safeParse({
      name: 'Mia',
      description: 'x'.repeat(BOT_LIMITS.description + 1),
      alternate_greetings: ['ok', 'x'.repeat(BOT_LIMITS.greeting + 1)],
    });
    expect(result.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['description', 'too_long'],
      ['alternate_greetings.1', 'too_long'],
    ]);
  });

  it('the card schema and the create schema share the limits', () => {
    const create = z.toJSONSchema(BotCreateSchema, { io: 'input', unrepresentable: 'any' }) as {
      properties: Record<string, { maxLength?: number }>;
    };
    expect(create.properties.name?.maxLength).toBe(BOT_LIMITS.name);
    expect(create.properties.description?.maxLength).toBe(BOT_LIMITS.description);
  });
});
