import { useState } from 'react';
import { useTranslation } from '../../lib/i18n';
import { Megaphone, X } from 'lucide-react';
import { STORAGE_KEYS } from '@reverie/shared';
import { Icon } from '../../components/ui/icon';
import { currentEdition } from '../../lib/edition';
import { storage } from '../../lib/storage';
import { useClientConfig } from '../../lib/client-config';

/** The dismissible banner linking to the edition's community chat; dismissal is remembered. */
export function NewsBanner() {
  const { t } = useTranslation();
  const { data: config } = useClientConfig();
  const communityUrl = config ? config.community_url : currentEdition().communityUrl;
  const [dismissed, setDismissed] = useState(() => storage.get(STORAGE_KEYS.newsDismissed) === communityUrl);
  if (!communityUrl || dismissed) return null;
  return (
    <div
      className="relative z-30 flex items-center justify-center gap-3 bg-gradient-to-r from-primary to-secondary px-10 py-2 text-center text-sm text-on-primary"
      data-testid="news-banner"
    >
      <Icon icon={Megaphone} size="sm" className="hidden shrink-0 sm:block" />
      <p className="leading-snug">
        {t('banner.text', { name: currentEdition().name })}{' '}
        <a
          href={communityUrl}
          target="_blank"
          rel="noopener noreferrer"
          className="font-semibold underline underline-offset-2"
        >
          {t('banner.cta')}
        </a>
      </p>
      <button
        type="button"
        className="absolute top-1/2 right-2 -translate-y-1/2 rounded-full p-1.5 hover:bg-white/20"
        aria-label={t('banner.dismiss')}
        onClick={() => {
          storage.set(STORAGE_KEYS.newsDismissed, communityUrl);
          setDismissed(true);
        }}
      >
        <Icon icon={X} size="sm" />
      </button>
    </div>
  );
}
