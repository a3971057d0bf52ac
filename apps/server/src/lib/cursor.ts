/**
 * Opaque keyset cursors: the sort key of the last row of a page, base64url-encoded JSON.
 * A cursor that does not decode is treated as "no cursor" by callers via `null`.
 */
export function encodeCursor(values: (string | number)[]): string {
  return Buffer.from(JSON.stringify(values), 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string | undefined, arity: number): (string | number)[] | null {
  if (!cursor) return null;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(parsed) &&
      parsed.length === arity &&
      parsed.every((v) => typeof v === 'string' || typeof v === 'number')
    ) {
      return parsed as (string | number)[];
    }
  } catch {
    // fall through
  }
  return null;
}
