import { AppError } from './errors.js';

/**
 * Opaque keyset cursors: the sort key of the last row of a page, base64url-encoded JSON.
 * Decoding is strict: a cursor that is not exactly what `encodeCursor` made for that list
 * (wrong base64 or JSON, wrong length, a non-integer or unsafe number, a malformed UUID or
 * date) is refused with 400 `invalid_cursor`, so that no malformed key reaches a query.
 */
export function encodeCursor(values: (string | number)[]): string {
  return Buffer.from(JSON.stringify(values), 'utf8').toString('base64url');
}

/** What each position of a cursor holds. */
export type CursorPart =
  /** A non-negative safe integer (a sequence number). */
  | 'int'
  /** A UUID in its canonical text form. */
  | 'uuid'
  /** An ISO 8601 UTC timestamp as the server writes it (`…T…Z`, up to microseconds). */
  | 'iso'
  /** A slug-like text id (lower-case letters, digits and dashes, ≤ 120 characters). */
  | 'slug';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ISO = /^(\d{4})-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?Z$/;
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;
const CURSOR_MAX = 300;

function isIsoTimestamp(value: string): boolean {
  const match = ISO.exec(value);
  if (!match || Number(match[1]) < 1970) return false;
  const time = new Date(value).getTime();
  // A date that JavaScript rolls over (2024-02-31, 24:00:00) is one PostgreSQL refuses.
  return Number.isFinite(time) && new Date(time).toISOString().slice(0, 19) === value.slice(0, 19);
}

function partIsValid(part: CursorPart, value: unknown): boolean {
  switch (part) {
    case 'int':
      return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
    case 'uuid':
      return typeof value === 'string' && UUID.test(value);
    case 'iso':
      return typeof value === 'string' && isIsoTimestamp(value);
    case 'slug':
      return typeof value === 'string' && value.length <= 120 && SLUG.test(value);
  }
}

export const invalidCursor = () => new AppError('invalid_cursor', { status: 400 });

/**
 * The key of a cursor made by `encodeCursor` with values of the given kinds; null without a
 * cursor; 400 `invalid_cursor` for anything else.
 */
export function decodeCursor<const P extends readonly CursorPart[]>(
  cursor: string | undefined,
  parts: P,
): { [K in keyof P]: P[K] extends 'int' ? number : string } | null {
  if (cursor === undefined || cursor === '') return null;
  if (cursor.length > CURSOR_MAX || !BASE64URL.test(cursor)) throw invalidCursor();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor();
  }
  if (!Array.isArray(parsed) || parsed.length !== parts.length || !parts.every((p, i) => partIsValid(p, parsed[i])))
    throw invalidCursor();
  return parsed as { [K in keyof P]: P[K] extends 'int' ? number : string };
}

/**
 * One page of a keyset list read with a row more than `size`: the first `size` rows presented,
 * and, when that extra row came, the cursor to the next page (the key of the page's last row).
 */
export function keysetPage<R, T>(
  rows: R[],
  size: number,
  present: (row: R) => T,
  keyOf: (last: R) => (string | number)[],
): { results: T[]; next_param: string | null } {
  const page = rows.slice(0, size);
  const last = page.at(-1);
  return {
    results: page.map((row) => present(row)),
    next_param: rows.length > size && last ? encodeCursor(keyOf(last)) : null,
  };
}
