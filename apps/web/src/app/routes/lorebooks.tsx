import '../../features/lorebooks/texts';
import { Page } from '../../components/ui/page';
import { LorebookList } from '../../features/lorebooks/components/lorebook-list';
import { useTranslation } from '../../lib/i18n';

/** `/lorebooks` (Settings → Lorebooks): the user's own lorebooks (docs/lorebooks.md). */
export function Component() {
  const { t } = useTranslation();
  return (
    <Page title={t('lorebooks.title')} subtitle={t('lorebooks.subtitle')}>
      <LorebookList />
    </Page>
  );
}
