import '../../lib/error-texts';
import { useTranslation } from '../../lib/i18n';
import { Page, Skeleton } from '../../components/ui/page';
import { useProfile } from '../../lib/profile';
import { AdminConsole } from '../../features/admin';

/** `/admin/*`: the admin console, for administrators only (`npm run admin:create`, or a promotion). */
export function Component() {
  const { t } = useTranslation();
  const { profile } = useProfile();
  if (!profile) {
    return (
      <Page title={t('pages.admin_title')}>
        <Skeleton className="h-32" />
      </Page>
    );
  }
  if (profile.role !== 'admin') {
    return (
      <Page title={t('pages.admin_title')}>
        <p
          className="rounded-2xl border border-red-400/30 bg-red-950/40 p-5 text-red-100"
          data-testid="admin-forbidden"
        >
          {t('errors.forbidden')}
        </p>
      </Page>
    );
  }
  return (
    <Page title={t('pages.admin_title')} subtitle={profile.email}>
      <AdminConsole />
    </Page>
  );
}
