import './texts';
import { Download, Share, X } from 'lucide-react';
import { currentEdition } from '../../lib/edition';
import { useTranslation } from '../../lib/i18n';
import { useInstallOffer } from '../../lib/install-offer';
import { Icon } from '../ui/icon';

/**
 * "Install the app", offered once (lib/pwa.ts `useInstallOffer`: after a few messages, never
 * on the first screen, not when installed). On iOS, where no browser can install by itself,
 * the Share → Add to Home Screen steps instead of a button.
 */
export function InstallOffer() {
  const { t } = useTranslation();
  const offer = useInstallOffer();
  if (!offer.kind) return null;
  return (
    <aside
      className="mx-auto mb-2 flex w-full max-w-3xl items-start gap-3 rounded-2xl border border-primary/30 bg-primary/10 px-4 py-3"
      aria-label={t('app.install_title', { name: currentEdition().name })}
      data-testid="install-offer"
    >
      <Icon icon={offer.kind === 'ios' ? Share : Download} size="md" className="mt-0.5 shrink-0 text-primary" />
      <div className="flex-1 text-sm">
        <p className="font-semibold">{t('app.install_title', { name: currentEdition().name })}</p>
        <p className="text-muted" data-testid="install-offer-text">
          {offer.kind === 'ios' ? t('app.install_ios_text') : t('app.install_text')}
        </p>
        {offer.kind === 'prompt' && (
          <button
            type="button"
            className="mt-2 rounded-full bg-primary px-4 py-1.5 font-semibold text-on-primary"
            onClick={() => void offer.install()}
            data-testid="install-button"
          >
            {t('app.install_button')}
          </button>
        )}
      </div>
      <button
        type="button"
        className="rounded-full p-1 text-muted hover:text-fg"
        onClick={offer.dismiss}
        aria-label={t('app.install_later')}
        data-testid="install-dismiss"
      >
        <Icon icon={X} size="sm" />
      </button>
    </aside>
  );
}
