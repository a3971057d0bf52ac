import { z } from 'zod';

/**
 * Input rules for every string a client can send (docs/ARCHITECTURE.md "Conventions"), in one
 * place so that every schema, the server's non-schema inputs (multipart fields, cards, query
 * strings, JSONB) and the web's forms agree:
 *
 * - single-line fields (usernames, names, e-mail, titles, tags, slugs, identifiers) refuse
 *   every control character: C0, DEL, C1, line and paragraph separators, bidirectional
 *   overrides and unpaired surrogates (`validation.control_characters`);
 * - free text (messages, descriptions, memory, comments) keeps `\n`, `\r` and `\t`; NUL,
 *   the other C0 controls and DEL are removed and unpaired surrogates become U+FFFD.
 *
 * PostgreSQL refuses NUL in `text` and `jsonb` and unpaired surrogates in `jsonb`: neither
 * may reach the database.
 */

/** Characters a single-line field refuses. */
const SINGLE_LINE_FORBIDDEN = /[\p{Cc}\p{Cs}\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;
/** Characters free text loses: C0 controls except tab, line feed and carriage return, and DEL. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const FREE_TEXT_STRIPPED = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;
/** What no stored string may hold whatever its field: NUL and unpaired surrogates. */
// eslint-disable-next-line no-control-regex -- matching NUL is the point
const NEVER_STORED = /[\u0000\p{Cs}]/u;

/** The deepest nesting of arrays and objects a JSON body or an imported card may have. */
export const JSON_MAX_DEPTH = 32;

export const hasControlCharacters = (value: string): boolean => SINGLE_LINE_FORBIDDEN.test(value);

/** True when the string holds something PostgreSQL cannot store (NUL, unpaired surrogate). */
export const hasUnstorableCharacters = (value: string): boolean => NEVER_STORED.test(value);

/** Free text as stored: control characters other than `\n \r \t` removed, well-formed UTF-16. */
export function cleanFreeText(value: string): string {
  const stripped = value.replace(FREE_TEXT_STRIPPED, '');
  return NEVER_STORED.test(stripped) ? stripped.replace(/\p{Cs}/gu, '\uFFFD') : stripped;
}

/**
 * Deep copy of a JSON value with every string (and object key) cleaned as free text and
 * `__proto__`/`constructor`/`prototype` keys dropped: for JSONB columns (card extensions,
 * lorebooks, analytics properties). Expects a value whose depth is already bounded.
 */
export function cleanJsonValue(value: unknown): unknown {
  if (typeof value === 'string') return cleanFreeText(value);
  if (Array.isArray(value)) return value.map(cleanJsonValue);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      if (key === '__proto__' || key === 'constructor' || key === 'prototype') continue;
      out[cleanFreeText(key)] = cleanJsonValue(item);
    }
    return out;
  }
  return typeof value === 'number' && !Number.isFinite(value) ? null : value;
}

/**
 * The nesting depth of a JSON text exceeds `max`: a linear scan of brackets outside strings,
 * before parsing (cheap on every body, and parsing or validating a deep value is never tried).
 */
export function jsonTooDeep(text: string, max = JSON_MAX_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/**
 * A single-line string field: refuses control characters with `control_characters`.
 * Chain the field's other rules after it: `singleLine().trim().min(1, …).max(80, …)`.
 */
export const singleLine = (base: z.ZodString = z.string()): z.ZodString =>
  base.refine((v) => !hasControlCharacters(v), { message: 'control_characters', abort: true });

/**
 * A free-text field: control characters other than `\n \r \t` are removed before the
 * field's other rules run: `freeText().trim().max(4000, …)`.
 */
export const freeText = (base: z.ZodString = z.string()): z.ZodString => base.overwrite(cleanFreeText);

/**
 * A field message with values: `<validation key>:<min>:<max>` (e.g. `number_range:0:100`),
 * which the server's error handler translates with `{min, max}` — the texts the web's forms say.
 */
export const rangeMessage = (min: number, max: number): string => `number_range:${min}:${max}`;

/** Reads a message of `rangeMessage`: its key and values; null for a plain message key. */
export function parseRangeMessage(message: string): { key: string; min: number; max: number } | null {
  const match = /^(\w+):(-?\d+):(-?\d+)$/.exec(message);
  return match ? { key: match[1]!, min: Number(match[2]), max: Number(match[3]) } : null;
}

/** A whole number from `min` to `max`; anything else (a fraction, a string, out of range) says the range. */
export const wholeNumber = (min: number, max: number) => {
  const message = rangeMessage(min, max);
  return z.number({ error: message }).int(message).min(min, message).max(max, message);
};
