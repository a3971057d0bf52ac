import '../../lib/error-texts';
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { DataExport } from '@reverie/shared';
import { requestDataExport, useDataExport } from '../../features/auth/api/data-export';
import { ApiRequestError } from '../../lib/api-client';
import { formatDateTime, formatBytes } from '../../lib/format';
import { currentLocale, useTranslation } from '../../lib/i18n';
import { mediaSrc } from '../../lib/media';
import { profileKeys } from '../../lib/query-keys';
import './settings-texts';

const button =
  'rounded-full bg-primary px-5 py-2.5 text-sm font-semibold text-on-primary hover:opacity-90 disabled:opacity-60';

/**
 * Settings' "Download my data" (docs/accounts.md): asks for an archive, follows it while it is
 * prepared (the app is also told when it is ready), then offers its expiring link; a failed
 * one can be asked again at once, a ready one the next day.
 */
export function DownloadMyData({ viewer }: { viewer: string }) {
  const { t } = useTranslation();
  const locale = currentLocale();
  const queryClient = useQueryClient();
  const { data, isPending } = useDataExport(viewer);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const latest: DataExport | null = data?.export ?? null;
  const now = Date.now();
  const mayAsk = !latest || latest.state === 'failed' || Date.parse(latest.next_allowed_at) <= now;

  const ask = async () => {
    setBusy(true);
    setError(null);
    try {
      const created = await requestDataExport();
      queryClient.setQueryData(profileKeys.dataExport(viewer), { export: created });
    } catch (failure) {
      setError(
        failure instanceof ApiRequestError && failure.status === 429
          ? t('settings.data_too_soon')
          : t('errors.something_went_wrong'),
      );
      void queryClient.invalidateQueries({ queryKey: profileKeys.dataExport(viewer) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="flex flex-col gap-3" data-testid="data-export">
      <p className="text-sm text-muted">{t('settings.data_text')}</p>
      {latest?.state === 'preparing' && (
        <p className="text-sm" role="status" data-testid="data-export-state">
          {t('settings.data_preparing')}
        </p>
      )}
      {latest?.state === 'ready' && latest.download_url && latest.expires_at && (
        <div className="flex flex-col gap-2" data-testid="data-export-state">
          <p className="text-sm" role="status">
            {t('settings.data_ready', { date: formatDateTime(latest.expires_at, locale) })}
          </p>
          <a
            href={mediaSrc(latest.download_url)}
            download
            rel="noreferrer"
            className={`${button} self-start`}
            data-testid="data-export-download"
          >
            {t('settings.data_download', { size: formatBytes(latest.size ?? 0, locale) })}
          </a>
        </div>
      )}
      {latest?.state === 'failed' && (
        <p className="text-sm text-red-400" role="alert" data-testid="data-export-state">
          {t('settings.data_failed')}
        </p>
      )}
      {latest?.state === 'expired' && (
        <p className="text-sm text-muted" data-testid="data-export-state">
          {t('settings.data_expired')}
        </p>
      )}
      {!isPending && latest?.state !== 'preparing' && (
        <div className="flex flex-col gap-1">
          <button
            type="button"
            className={`${latest?.state === 'ready' ? 'rounded-full border border-white/15 px-5 py-2.5 text-sm font-semibold hover:bg-white/5 disabled:opacity-60' : button} self-start`}
            disabled={busy || !mayAsk}
            onClick={() => void ask()}
            data-testid="data-export-request"
          >
            {latest?.state === 'failed'
              ? t('settings.data_retry')
              : latest
                ? t('settings.data_new')
                : t('settings.data_button')}
          </button>
          {latest && !mayAsk && (
            <p className="text-xs text-muted">
              {t('settings.data_again_at', { date: formatDateTime(latest.next_allowed_at, locale) })}
            </p>
          )}
        </div>
      )}
      {error && (
        <p className="text-sm text-red-400" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
