import type { AdminAuditEntry } from '@reverie/shared';
import type { AuditRow } from './audit.repository.js';

/** An audit-log row as the console shows it. */
export function presentAuditEntry(row: AuditRow): AdminAuditEntry {
  return {
    id: Number(row.id),
    actor_id: row.actorId,
    actor_email: row.actorEmail,
    action: row.action,
    target_type: row.targetType,
    target_id: row.targetId,
    before: row.before ?? null,
    after: row.after ?? null,
    reason: row.reason,
    created_at: row.createdAt.toISOString(),
  };
}
