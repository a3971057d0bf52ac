import { z } from 'zod';

/**
 * "Download my data" (docs/accounts.md "Download my data"): one archive at a time, prepared in
 * the background, kept for `DATA_EXPORT_TTL_HOURS`, asked for at most once a day.
 */
export const DATA_EXPORT_TTL_HOURS = 72;
/** One archive a day per account (a failed one may be asked again at once). */
export const DATA_EXPORT_EVERY_HOURS = 24;

/** `GET/POST /api/profile/data_export`: the user's latest archive. */
export const DataExportSchema = z
  .object({
    id: z.string(),
    state: z.enum(['preparing', 'ready', 'failed', 'expired']),
    requested_at: z.string(),
    /** When it became ready; null while preparing or after a failure. */
    ready_at: z.string().nullable(),
    /** Until when the download link works (ready only). */
    expires_at: z.string().nullable(),
    /** The archive's size in bytes (ready only). */
    size: z.number().int().nullable(),
    /** The expiring download link (ready only): a signed URL, no token needed. */
    download_url: z.string().nullable(),
    /** When another archive may be asked for (now or earlier: at once). */
    next_allowed_at: z.string(),
  })
  .meta({ id: 'DataExport' });
export type DataExport = z.infer<typeof DataExportSchema>;

export const DataExportStatusSchema = z
  .object({ export: DataExportSchema.nullable() })
  .meta({ id: 'DataExportStatus' });
export type DataExportStatus = z.infer<typeof DataExportStatusSchema>;

export const DataExportDownloadQuerySchema = z.object({
  exp: z.string().regex(/^\d{1,12}$/),
  sig: z.string().regex(/^[A-Za-z0-9_-]{20,100}$/),
});
