import type { DataExport } from '@reverie/shared';
import type { DataExportRow } from './data-export.repository.js';

/** A row as the API shows it; the link only while it is ready. */
export function presentExport(row: DataExportRow, downloadUrl: string | null, nextAllowedAt: Date): DataExport {
  const ready = row.state === 'ready';
  return {
    id: row.id,
    state: row.state,
    requested_at: row.createdAt.toISOString(),
    ready_at: ready ? (row.readyAt?.toISOString() ?? null) : null,
    expires_at: ready ? (row.expiresAt?.toISOString() ?? null) : null,
    size: ready ? (row.size ?? null) : null,
    download_url: ready ? downloadUrl : null,
    next_allowed_at: nextAllowedAt.toISOString(),
  };
}
