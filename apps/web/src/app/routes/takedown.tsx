import { useTranslation } from '../../lib/i18n';
import { Page } from '../../components/ui/page';
import { TakedownForm } from '../../features/takedown';
import '../../features/takedown/texts';

/** `/takedown`: a takedown request, open to anyone, signed in or not (TAKE IT DOWN Act). */
export function Component() {
  const { t } = useTranslation();
  return (
    <Page title={t('pages.takedown_title')}>
      <div className="flex max-w-3xl flex-col gap-6">
        <div className="flex flex-col gap-3 text-muted">
          <p>{t('takedown.intro')}</p>
          <p>{t('takedown.intro_deadline')}</p>
        </div>
        <TakedownForm siteOrigin={window.location.origin} />
      </div>
    </Page>
  );
}
