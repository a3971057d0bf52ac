import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import type { AdminUserSummary, Locale } from '@reverie/shared';
import { useTranslation } from '../../../../lib/i18n';
import { formatBalance, formatDate, formatNumber } from '../../../../lib/format';
import { SearchField } from '../../../../components/ui/search-field';
import { ADMIN_USERS_PAGE, useAdminUsers } from '../../api/search-users';
import { AdminTable, type AdminColumn } from '../../components/admin-table';
import { AdminPager } from '../../components/admin-pager';
import { AdminEmpty, AdminError, AdminLoading } from '../../components/admin-states';
import { RoleBadge, StatusBadge } from './badges';

/** Waits until typing pauses before searching. */
function useDebounced<T>(value: T, ms = 300): T {
  const [current, setCurrent] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setCurrent(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return current;
}

/** Search by name, username or e-mail; a row opens the user's page. */
export function UserList() {
  const { t, i18n } = useTranslation();
  const locale = i18n.language as Locale;
  const navigate = useNavigate();
  const [text, setText] = useState('');
  const q = useDebounced(text.trim());
  const [offset, setOffset] = useState(0);
  useEffect(() => {
    setOffset(0);
  }, [q]);
  const query = useAdminUsers(q, offset);
  const columns: AdminColumn<AdminUserSummary>[] = [
    {
      id: 'name',
      label: t('admin.users.name'),
      render: (u) => (
        <span className="flex flex-col">
          <span className="font-medium">{u.name}</span>
          <span className="text-xs text-muted">@{u.username}</span>
        </span>
      ),
    },
    { id: 'email', label: t('admin.users.email'), render: (u) => <span className="break-all">{u.email}</span> },
    {
      id: 'status',
      label: t('admin.users.status'),
      render: (u) => (
        <span className="flex flex-wrap gap-1">
          <RoleBadge role={u.role} />
          <StatusBadge banned={u.banned} />
        </span>
      ),
    },
    {
      id: 'balance',
      label: t('admin.users.balance'),
      className: 'tabular-nums md:text-right',
      render: (u) => formatBalance(u.balance, locale),
    },
    { id: 'created', label: t('admin.users.created'), render: (u) => formatDate(u.created_at, locale) },
  ];
  const data = query.data;
  return (
    <div className="flex flex-col gap-4" data-testid="admin-users">
      <SearchField
        value={text}
        onChange={setText}
        label={t('admin.users.search_label')}
        placeholder={t('admin.users.search_placeholder')}
        maxLength={200}
        testId="admin-users-search"
      />
      {query.isError && <AdminError onRetry={() => void query.refetch()} />}
      {!data && query.isPending && <AdminLoading />}
      {data && (
        <>
          <p className="text-sm text-muted" data-testid="admin-users-total">
            {t('admin.users.found', { count: data.total, formatted: formatNumber(data.total, locale) })}
          </p>
          {data.results.length === 0 ? (
            <AdminEmpty>{t('admin.users.none')}</AdminEmpty>
          ) : (
            <AdminTable
              testId="admin-users-table"
              caption={t('admin.users.title')}
              columns={columns}
              rows={data.results}
              rowKey={(u) => u.id}
              onRowClick={(u) => navigate(`/admin/users/${u.id}`)}
            />
          )}
          <AdminPager
            page={Math.floor(offset / ADMIN_USERS_PAGE) + 1}
            hasPrev={offset > 0}
            hasNext={data.next_offset !== null}
            onPrev={() => setOffset((o) => Math.max(0, o - ADMIN_USERS_PAGE))}
            onNext={() => data.next_offset !== null && setOffset(data.next_offset)}
          />
        </>
      )}
    </div>
  );
}
