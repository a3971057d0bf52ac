/**
 * One administrative write, as the audit log keeps it (docs/admin.md "Audit log"): written by
 * the admin module's `recordAudit`, and described by the operator's commands in the accounts
 * module (`OperatorCommands`), which the caller records.
 */
export interface AuditEntry {
  /** e.g. `user.ban`, `character.approve`, `takedown.remove` (`<target type>.<verb>`). */
  action: string;
  targetType: string;
  targetId: string;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
  reason?: string | null;
}
