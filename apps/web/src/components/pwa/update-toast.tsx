import './texts';
import { RefreshCw } from 'lucide-react';
import { useTranslation } from '../../lib/i18n';
import { useAppUpdate } from '../../lib/sw-register';
import { Icon } from '../ui/icon';

/** "A new version is ready — Reload": the waiting service worker takes over and the page reloads. */
export function UpdateToast() {
  const { t } = useTranslation();
  const { waiting, reload, dismiss } = useAppUpdate();
  if (!waiting) return null;
  return (
    <div
      role="status"
      className="fixed inset-x-3 bottom-[calc(5rem+env(safe-area-inset-bottom))] z-[70] mx-auto flex max-w-md items-center gap-3 rounded-2xl border border-white/10 bg-surface px-4 py-3 shadow-xl md:bottom-6"
      data-testid="update-toast"
    >
      <Icon icon={RefreshCw} size="md" className="shrink-0 text-primary" />
      <span className="flex-1 text-sm">{t('app.update_ready')}</span>
      <button type="button" className="text-sm text-muted hover:text-fg" onClick={dismiss}>
        {t('app.update_later')}
      </button>
      <button
        type="button"
        className="rounded-full bg-primary px-4 py-1.5 text-sm font-semibold text-on-primary"
        onClick={reload}
        data-testid="update-reload"
      >
        {t('app.update_reload')}
      </button>
    </div>
  );
}
