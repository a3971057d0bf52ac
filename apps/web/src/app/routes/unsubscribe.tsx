import { useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../lib/i18n';
import { useSearchParams } from 'react-router';
import { Page, Skeleton } from '../../components/ui/page';
import { unsubscribe } from '../../features/auth/api/unsubscribe';
import '../../features/auth/texts';

/** `/email/unsubscribe?token=…`: stops marketing mail; account mail still goes out. */
export function Component() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token');
  const [state, setState] = useState<'working' | 'done' | 'failed'>(token ? 'working' : 'failed');
  const started = useRef(false);
  useEffect(() => {
    if (!token || started.current) return;
    started.current = true;
    unsubscribe(token).then(
      () => setState('done'),
      () => setState('failed'),
    );
  }, [token]);
  return (
    <Page title={t('pages.unsubscribe_title')}>
      <div
        className="max-w-xl rounded-3xl border border-white/10 bg-surface p-6"
        data-testid="unsubscribe"
        data-state={state}
      >
        {state === 'working' && (
          <>
            <p className="mb-4 text-muted">{t('auth.unsubscribe_working')}</p>
            <Skeleton className="h-6" />
          </>
        )}
        {state === 'done' && (
          <>
            <p className="text-lg font-semibold">{t('auth.unsubscribed')}</p>
            <p className="mt-2 text-sm text-muted">{t('auth.unsubscribe_note')}</p>
          </>
        )}
        {state === 'failed' && <p className="text-red-200">{t('auth.unsubscribe_failed')}</p>}
      </div>
    </Page>
  );
}
