/**
 * The name of the unique index a failed write violated (PostgreSQL `23505`, found through the
 * driver's `cause` chain); `''` when the driver does not name it; null for any other error.
 */
export function violatedUniqueIndex(error: unknown): string | null {
  for (
    let e = error as { code?: string; constraint_name?: string; constraint?: string; cause?: unknown } | undefined;
    e;
    e = e.cause as typeof e
  ) {
    if (e.code === '23505') return e.constraint_name ?? e.constraint ?? '';
  }
  return null;
}
