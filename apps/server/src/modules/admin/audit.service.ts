import type { z } from 'zod';
import type { AdminAuditPage, AdminAuditQuerySchema } from '@reverie/shared';
import type { Database } from '../../db/client.js';
import { decodeCursor, keysetPage } from '../../lib/cursor.js';
import { presentAuditEntry } from './audit.presenter.js';
import { listAudit } from './audit.repository.js';

/** The Audit log section: every admin write, newest first, by action or target (keyset pages). */
export class AdminAuditService {
  constructor(private readonly deps: { db: Database }) {}

  async list(query: z.output<typeof AdminAuditQuerySchema>): Promise<AdminAuditPage> {
    const { size, c, action, target_type, target_id } = query;
    const after = decodeCursor(c, ['iso', 'int'] as const);
    const rows = await listAudit(this.deps.db, {
      size: size + 1,
      after: after ? { createdAt: after[0], id: after[1] } : null,
      target: target_type && target_id ? { type: target_type, id: target_id } : null,
      action: action || null,
      targetType: target_type && !target_id ? target_type : null,
    });
    return keysetPage(rows, size, presentAuditEntry, (last) => [last.cursorAt, Number(last.id)]);
  }
}
