/**
 * Where a user's transform files live: one prefix per user, so that "delete all data" and a
 * takedown remove them all with one `deletePrefix`.
 */
export const userTransformPrefix = (userId: string) => `transforms/${userId}`;
