import type { AdminTakedownDetail, AdminTakedownItem, AdminTakedownSummary } from '@reverie/shared';
import type { TakedownRow } from './takedown.repository.js';
import { TAKEDOWN_DEADLINE_HOURS } from '@reverie/shared';

/** When a request must have been handled: 48 hours after it came. */
export const takedownDueAt = (createdAt: Date) => new Date(createdAt.getTime() + TAKEDOWN_DEADLINE_HOURS * 3600_000);

export function presentTakedownSummary(row: TakedownRow, now: Date): AdminTakedownSummary {
  const due = takedownDueAt(row.createdAt);
  return {
    id: row.id,
    reference: row.reference,
    email: row.email,
    status: row.status,
    item_count: row.items.length,
    description: row.description,
    created_at: row.createdAt.toISOString(),
    due_at: due.toISOString(),
    overdue: row.status === 'open' && due.getTime() < now.getTime(),
    handled_at: row.handledAt?.toISOString() ?? null,
  };
}

export function presentTakedownDetail(row: TakedownRow, items: AdminTakedownItem[], now: Date): AdminTakedownDetail {
  return {
    ...presentTakedownSummary(row, now),
    signature: row.signature,
    locale: row.locale,
    resolution: row.resolution,
    removed: row.removed ?? null,
    handled_by: row.handledBy,
    items,
  };
}
