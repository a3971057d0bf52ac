import { useTranslation } from '../../../../lib/i18n';

export function RoleBadge({ role }: { role: 'user' | 'admin' }) {
  const { t } = useTranslation();
  if (role !== 'admin') return null;
  return (
    <span className="rounded-full bg-primary/20 px-2 py-0.5 text-xs font-medium text-white">
      {t('admin.users.role_admin')}
    </span>
  );
}

export function StatusBadge({ banned }: { banned: boolean }) {
  const { t } = useTranslation();
  return banned ? (
    <span className="rounded-full bg-red-500/20 px-2 py-0.5 text-xs font-medium text-red-200">
      {t('admin.users.banned')}
    </span>
  ) : (
    <span className="rounded-full bg-emerald-500/15 px-2 py-0.5 text-xs text-emerald-200">
      {t('admin.users.active')}
    </span>
  );
}
