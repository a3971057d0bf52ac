import { useTranslation } from '../../lib/i18n';
import { Page } from '../../components/ui/page';

export function Component() {
  const { t } = useTranslation();
  return <Page title={t('pages.transform_title')} />;
}
