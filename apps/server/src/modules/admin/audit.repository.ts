import { and, desc, eq, getTableColumns, lt, or, sql } from 'drizzle-orm';
import { rowsOf, type Database } from '../../db/client.js';
import { auditLog } from '../../db/schema.js';
import type { AuditEntry } from '../../lib/audit-entry.js';

export type { AuditEntry };

/** Who the audit log names for `npm run admin:*` (no account acts: the operator on the machine). */
export const OPERATOR_ACTOR = 'operator (command line)';

/**
 * Records an admin write. Call it with the transaction that makes the write, so that the
 * change and its record land together (or neither does). The actor's e-mail is copied in, so
 * the record still says who after that account is deleted. `actorId` null is the operator's
 * command line. An actor that is no account throws, so the write it belongs to fails too.
 */
export async function recordAudit(db: Database, actorId: string | null, entry: AuditEntry): Promise<void> {
  const before = entry.before ? JSON.stringify(entry.before) : null;
  const after = entry.after ? JSON.stringify(entry.after) : null;
  const inserted = rowsOf<{ id: number }>(
    actorId === null
      ? await db.execute(sql`
          insert into audit_log (actor_id, actor_email, action, target_type, target_id, before, after, reason)
          values (null, ${OPERATOR_ACTOR}, ${entry.action}, ${entry.targetType}, ${entry.targetId},
                  ${before}::jsonb, ${after}::jsonb, ${entry.reason ?? null})
          returning id`)
      : await db.execute(sql`
          insert into audit_log (actor_id, actor_email, action, target_type, target_id, before, after, reason)
          select u.id, u.email, ${entry.action}, ${entry.targetType}, ${entry.targetId},
                 ${before}::jsonb, ${after}::jsonb, ${entry.reason ?? null}
          from users u where u.id = ${actorId}
          returning id`),
  );
  if (inserted.length === 0) throw new Error('audit: the acting administrator has no account');
}

/**
 * A timestamp as UTC ISO text with its microseconds: a keyset cursor made from it finds the
 * exact row again (a JavaScript `Date` would lose the microseconds and skip rows).
 */
export const microsecondText = (column: typeof auditLog.createdAt | ReturnType<typeof sql>) =>
  sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

export type AuditRow = typeof auditLog.$inferSelect & {
  /** `created_at` with its microseconds, for a keyset cursor. */
  cursorAt: string;
};

/** The audit log, newest first, a keyset page after `(createdAt, id)`; optionally one target. */
export async function listAudit(
  db: Database,
  options: {
    size: number;
    /** The last row of the page before: its `cursorAt` (or a Date) and id. */
    after?: { createdAt: Date | string; id: number } | null;
    target?: { type: string; id: string } | null;
    action?: string | null;
    /** Only this target type (any id). */
    targetType?: string | null;
  },
): Promise<AuditRow[]> {
  const conditions = [];
  if (options.after) {
    const at =
      options.after.createdAt instanceof Date ? options.after.createdAt.toISOString() : options.after.createdAt;
    conditions.push(
      or(
        sql`${auditLog.createdAt} < ${at}::timestamptz`,
        and(sql`${auditLog.createdAt} = ${at}::timestamptz`, lt(auditLog.id, options.after.id)),
      ),
    );
  }
  if (options.target)
    conditions.push(and(eq(auditLog.targetType, options.target.type), eq(auditLog.targetId, options.target.id)));
  if (options.action) conditions.push(eq(auditLog.action, options.action));
  if (options.targetType) conditions.push(eq(auditLog.targetType, options.targetType));
  return db
    .select({ ...getTableColumns(auditLog), cursorAt: microsecondText(auditLog.createdAt) })
    .from(auditLog)
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(options.size);
}
