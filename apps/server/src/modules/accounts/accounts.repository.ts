import { and, eq, gt, isNull, ne, sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Database } from '../../db/client.js';
import { findRow, insertIfAbsent, updateRow } from '../../db/rows.js';
import { emailTokens, refreshTokens, supportReports, users } from '../../db/schema.js';

export type UserRow = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;
export type RefreshTokenRow = typeof refreshTokens.$inferSelect;
export type EmailTokenPurpose = 'verify' | 'reset';

export async function findUserById(db: Database, id: string): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row ?? null;
}

/** E-mail addresses are unique case-insensitively. */
export async function findUserByEmail(db: Database, email: string): Promise<UserRow | null> {
  const [row] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = lower(${email})`)
    .limit(1);
  return row ?? null;
}

/** Inserts a user; null when the e-mail is taken (unique index), so races cannot 500. */
export async function insertUser(db: Database, values: NewUser): Promise<UserRow | null> {
  return insertIfAbsent(db, users, values);
}

export async function updateUser(db: Database, id: string, change: Partial<NewUser>): Promise<UserRow | null> {
  return (await updateRow(db, users, eq(users.id, id), { ...change, updatedAt: new Date() })) ?? null;
}

export async function insertRefreshToken(
  db: Database,
  values: { userId: string; familyId: string; tokenHash: string; expiresAt: Date },
): Promise<void> {
  await db.insert(refreshTokens).values(values);
}

export async function findRefreshToken(db: Database, tokenHash: string): Promise<RefreshTokenRow | null> {
  const [row] = await db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, tokenHash)).limit(1);
  return row ?? null;
}

/**
 * Rotation and revocation of one user's refresh tokens are serialised on the user's row:
 * revoking locks it `FOR UPDATE`, a rotation `FOR KEY SHARE` before it touches the token. On
 * PostgreSQL a revoke that ran while a rotation was inserting a successor would otherwise
 * update only the rows its snapshot saw and leave the successor live (the session would
 * survive log-out or a password reset). With the lock the revoke's UPDATE starts after the
 * rotation committed and sees the successor; a rotation that starts after the revoke finds
 * the token revoked.
 */
async function lockUserForRevoke(tx: Database, userId: string): Promise<void> {
  await tx.execute(sql`select 1 from users where id = ${userId} for update`);
}

/** Revokes every token of the family (log-out, reuse after the grace window). */
export async function revokeRefreshFamily(db: Database, userId: string, familyId: string): Promise<void> {
  await revokeTokens(db, userId, eq(refreshTokens.familyId, familyId));
}

/** Revokes every token of the user (password reset, ban), or all but one session's (password change). */
export async function revokeAllRefreshTokens(
  db: Database,
  userId: string,
  options: { exceptFamily?: string } = {},
): Promise<void> {
  await revokeTokens(db, userId, options.exceptFamily ? ne(refreshTokens.familyId, options.exceptFamily) : undefined);
}

/** Revokes the user's live tokens that `which` selects (all of them without it), under the user's lock. */
async function revokeTokens(db: Database, userId: string, which: SQL | undefined): Promise<void> {
  await db.transaction(async (tx) => {
    await lockUserForRevoke(tx, userId);
    await tx
      .update(refreshTokens)
      .set({ revokedAt: new Date() })
      .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt), which));
  });
}

export async function insertEmailToken(
  db: Database,
  values: { userId: string; purpose: EmailTokenPurpose; tokenHash: string; expiresAt: Date },
): Promise<void> {
  await db.insert(emailTokens).values(values);
}

/** A code that is unused and unexpired, for the given purpose. */
export async function findLiveEmailToken(db: Database, purpose: EmailTokenPurpose, tokenHash: string) {
  const live = and(isNull(emailTokens.usedAt), gt(emailTokens.expiresAt, new Date()));
  return findRow(db, emailTokens, and(eq(emailTokens.tokenHash, tokenHash), eq(emailTokens.purpose, purpose), live));
}

/** Uses a code once; false when it was used meanwhile. */
export async function consumeEmailToken(db: Database, id: string): Promise<boolean> {
  const rows = await db
    .update(emailTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(emailTokens.id, id), isNull(emailTokens.usedAt)))
    .returning({ id: emailTokens.id });
  return rows.length === 1;
}

/** Voids every unused code of that purpose (a new reset link replaces the old ones). */
export async function voidEmailTokens(db: Database, userId: string, purpose: EmailTokenPurpose): Promise<void> {
  await db
    .update(emailTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(emailTokens.userId, userId), eq(emailTokens.purpose, purpose), isNull(emailTokens.usedAt)));
}

/**
 * Voids the user's unused codes of that purpose and stores the new one, in one transaction
 * that locks the user's row first: two requests at once leave exactly one live code.
 */
export async function replaceEmailToken(
  db: Database,
  values: { userId: string; purpose: EmailTokenPurpose; tokenHash: string; expiresAt: Date },
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const locked = rowsOf(await tx.execute(sql`select 1 from users where id = ${values.userId} for update`));
    if (locked.length === 0) return false;
    await voidEmailTokens(tx, values.userId, values.purpose);
    await insertEmailToken(tx, values);
    return true;
  });
}

export async function insertSupportReport(
  db: Database,
  values: { userId: string | null; email: string | null; subject: string; text: string },
): Promise<string> {
  const [row] = await db.insert(supportReports).values(values).returning({ id: supportReports.id });
  return row!.id;
}

/**
 * What decides whether a session (refresh-token family) is live, in one query: the user's
 * role and ban, and whether the family still has a token that is not revoked. Null when
 * the user does not exist.
 */
export async function findSessionState(
  db: Database,
  userId: string,
  familyId: string,
): Promise<{ role: string; bannedAt: Date | null; live: boolean } | null> {
  const [row] = await db
    .select({
      role: users.role,
      bannedAt: users.bannedAt,
      // Spelled out: drizzle leaves columns unqualified inside a select's sql fragment.
      live: sql<boolean>`exists (select 1 from refresh_tokens rt where rt.family_id = ${familyId}
        and rt.user_id = users.id and rt.revoked_at is null)`.mapWith(Boolean),
    })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return row ?? null;
}

/**
 * Rotates a refresh token in one transaction: marks it used (only if unused and not
 * revoked) and stores its successor. Answers the rotation time, or null when another
 * request used or revoked it first (on PostgreSQL a concurrent rotation waits for this one
 * to commit, then finds the token used).
 */
export async function rotateRefreshToken(
  db: Database,
  row: RefreshTokenRow,
  successor: { tokenHash: string; expiresAt: Date },
): Promise<Date | null> {
  return db.transaction(async (tx) => {
    // Waits for a revoke of this user under way, so it cannot miss the successor (above).
    await tx.execute(sql`select 1 from users where id = ${row.userId} for key share`);
    const [used] = await tx
      .update(refreshTokens)
      .set({ usedAt: new Date() })
      .where(and(eq(refreshTokens.id, row.id), isNull(refreshTokens.usedAt), isNull(refreshTokens.revokedAt)))
      .returning({ usedAt: refreshTokens.usedAt });
    if (!used?.usedAt) return null;
    await tx
      .insert(refreshTokens)
      .values({ userId: row.userId, familyId: row.familyId, ...successor })
      .onConflictDoNothing();
    return used.usedAt;
  });
}

export async function setUserBan(
  db: Database,
  userId: string,
  ban: { bannedAt: Date; banReason: string | null } | null,
): Promise<UserRow | null> {
  return updateUser(db, userId, ban ?? { bannedAt: null, banReason: null });
}
