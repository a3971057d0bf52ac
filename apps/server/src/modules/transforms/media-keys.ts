/**
 * Where a user's transform files live: one prefix per user, so that "delete all data" and a
 * takedown remove them all with one `deletePrefix`.
 */
export const userTransformPrefix = (userId: string) => `transforms/${userId}`;

const TRANSFORM_KEY = /^transforms\/([0-9a-f-]{36})\/([0-9a-f-]{36})-(?:original|result)-/i;

/** The transform a media key belongs to (`transforms/<user id>/<transform id>-…`), or null. */
export function transformOfMediaKey(key: string): { userId: string; id: string } | null {
  const match = TRANSFORM_KEY.exec(key);
  return match ? { userId: match[1]!.toLowerCase(), id: match[2]!.toLowerCase() } : null;
}
