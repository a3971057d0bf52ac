import { useState, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { ArrowLeft } from 'lucide-react';
import type { AdminSession, AdminUserDetail, Locale, Subscription } from '@reverie/shared';
import { useTranslation } from '../../../../lib/i18n';
import { formatBalance, formatDate, formatDateTime } from '../../../../lib/format';
import { Icon } from '../../../../components/ui/icon';
import { showAlert } from '../../../../components/ui/alerts';
import { useAdminUser } from '../../api/get-user';
import { useAdminLedger } from '../../api/get-ledger';
import { useBanUser } from '../../api/ban-user';
import { useUnbanUser } from '../../api/unban-user';
import { useEndSessions } from '../../api/end-sessions';
import { useSetRole } from '../../api/set-role';
import { useDeleteUser } from '../../api/delete-user';
import { AdminTable, type AdminColumn } from '../../components/admin-table';
import { KeysetResults, useKeysetPages } from '../../components/admin-pager';
import { ledgerColumns, paymentColumns } from '../../components/money-columns';
import { AdminCard, AdminEmpty, AdminError, AdminLoading } from '../../components/admin-states';
import { ConfirmAction } from '../../components/confirm-action';
import { DesiresDialog } from './desires-dialog';
import { RoleBadge, StatusBadge } from './badges';
import { subscriptionMilestone } from '../../../../lib/subscription-dates';

/**
 * A subscription as the console shows it: the dates the subscriber sees (the server's own
 * view of it), e.g. "monthly, free trial until 30 Nov".
 */
function subscriptionLine(
  t: (key: string, options?: Record<string, unknown>) => string,
  view: Subscription,
  locale: Locale,
): string {
  const milestone = subscriptionMilestone(view);
  const status = t(`admin.users.subscription_statuses.${view.status}`);
  if (!milestone) return t('admin.users.subscription_plain', { plan: view.plan, status });
  return t(`admin.users.subscription_${milestone.kind}`, {
    plan: view.plan,
    status,
    date: formatDate(milestone.date, locale),
  });
}

type Dialog = null | 'grant' | 'remove' | 'ban' | 'unban' | 'sessions' | 'promote' | 'demote' | 'delete';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-0.5">
      <dt className="text-xs text-muted">{label}</dt>
      <dd className="break-words">{children}</dd>
    </div>
  );
}

function ActionButton({
  onClick,
  children,
  danger = false,
  testId,
}: {
  onClick: () => void;
  children: ReactNode;
  danger?: boolean;
  testId: string;
}) {
  return (
    <button
      type="button"
      onClick={onClick}
      data-testid={testId}
      className={`rounded-xl border px-3 py-2 text-sm transition ${
        danger ? 'border-red-400/40 text-red-200 hover:bg-red-500/10' : 'border-white/10 hover:bg-white/5'
      }`}
    >
      {children}
    </button>
  );
}

function Ledger({ userId }: { userId: string }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language as Locale;
  const pages = useKeysetPages();
  const query = useAdminLedger(userId, pages.cursor);
  const columns = ledgerColumns(t, locale, false);
  return (
    <AdminCard title={t('admin.users.ledger')} testId="admin-user-ledger">
      <KeysetResults query={query} pages={pages} empty={t('admin.ledger.none')}>
        {(rows) => <AdminTable columns={columns} rows={rows} rowKey={(e) => e.id} />}
      </KeysetResults>
    </AdminCard>
  );
}

function Actions({ user }: { user: AdminUserDetail }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [dialog, setDialog] = useState<Dialog>(null);
  const close = () => setDialog(null);
  const ban = useBanUser(user.id);
  const unban = useUnbanUser(user.id);
  const sessions = useEndSessions(user.id);
  const role = useSetRole(user.id);
  const remove = useDeleteUser(user.id);
  const done = (key: string) => showAlert(t(key), { type: 'success' });
  const demote = dialog === 'demote';
  // The confirmed writes: a reason required for what is severe (ban, delete), optional otherwise.
  const confirmations = [
    {
      id: 'ban',
      open: dialog === 'ban',
      title: t('admin.users.ban_title', { name: user.name }),
      description: t('admin.users.ban_description'),
      reasonLabel: t('admin.users.ban_reason'),
      confirmLabel: t('admin.users.ban'),
      danger: true,
      write: (reason: string) => ban.mutateAsync({ reason }),
      done: 'admin.users.banned_done',
    },
    {
      id: 'unban',
      open: dialog === 'unban',
      title: t('admin.users.unban_title', { name: user.name }),
      confirmLabel: t('admin.users.unban'),
      reason: 'optional' as const,
      write: (reason: string) => unban.mutateAsync({ reason: reason || undefined }),
      done: 'admin.users.unbanned_done',
    },
    {
      id: 'sessions',
      open: dialog === 'sessions',
      title: t('admin.users.end_sessions_title'),
      description: t('admin.users.end_sessions_description'),
      confirmLabel: t('admin.users.end_sessions'),
      reason: 'optional' as const,
      write: (reason: string) => sessions.mutateAsync({ reason: reason || undefined }),
      done: 'admin.users.sessions_done',
    },
    {
      id: 'role',
      open: dialog === 'promote' || demote,
      title: t(demote ? 'admin.users.demote_title' : 'admin.users.promote_title', { name: user.name }),
      description: t(demote ? 'admin.users.demote_description' : 'admin.users.promote_description'),
      confirmLabel: t(demote ? 'admin.users.demote' : 'admin.users.promote'),
      reason: 'optional' as const,
      write: (reason: string) => role.mutateAsync({ role: demote ? 'user' : 'admin', reason: reason || undefined }),
      done: 'admin.users.role_done',
    },
    {
      id: 'delete',
      open: dialog === 'delete',
      title: t('admin.users.delete_title', { name: user.name }),
      description: t('admin.users.delete_description'),
      confirmLabel: t('admin.users.delete'),
      danger: true,
      write: (reason: string) => remove.mutateAsync({ reason }),
      done: 'admin.users.deleted_done',
      after: () => navigate('/admin/users'),
    },
  ];
  return (
    <AdminCard title={t('admin.users.actions')}>
      <div className="flex flex-wrap gap-2">
        <ActionButton testId="action-grant" onClick={() => setDialog('grant')}>
          {t('admin.users.grant')}
        </ActionButton>
        <ActionButton testId="action-remove" onClick={() => setDialog('remove')}>
          {t('admin.users.remove')}
        </ActionButton>
        <ActionButton testId="action-sessions" onClick={() => setDialog('sessions')}>
          {t('admin.users.end_sessions')}
        </ActionButton>
        {user.role === 'admin' ? (
          <ActionButton testId="action-demote" onClick={() => setDialog('demote')}>
            {t('admin.users.demote')}
          </ActionButton>
        ) : (
          <ActionButton testId="action-promote" onClick={() => setDialog('promote')}>
            {t('admin.users.promote')}
          </ActionButton>
        )}
        {user.banned_at ? (
          <ActionButton testId="action-unban" onClick={() => setDialog('unban')}>
            {t('admin.users.unban')}
          </ActionButton>
        ) : (
          <ActionButton testId="action-ban" danger onClick={() => setDialog('ban')}>
            {t('admin.users.ban')}
          </ActionButton>
        )}
        <ActionButton testId="action-delete" danger onClick={() => setDialog('delete')}>
          {t('admin.users.delete')}
        </ActionButton>
      </div>
      <DesiresDialog
        userId={user.id}
        balance={user.balance}
        mode={dialog === 'remove' ? 'remove' : 'grant'}
        open={dialog === 'grant' || dialog === 'remove'}
        onClose={close}
      />
      {confirmations.map(({ id, open, done: doneKey, write, after, ...texts }) => (
        <ConfirmAction
          key={id}
          open={open}
          onClose={close}
          {...texts}
          onConfirm={async (reason) => {
            await write(reason);
            done(doneKey);
            after?.();
          }}
        />
      ))}
    </AdminCard>
  );
}

/** `/admin/users/<id>`: the profile, balance, ledger, payments, subscription, sessions and actions. */
export function UserPage({ id }: { id: string }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language as Locale;
  const query = useAdminUser(id);
  const user = query.data;
  const payments = paymentColumns(t, locale, false);
  const sessionColumns: AdminColumn<AdminSession>[] = [
    { id: 'created', label: t('admin.users.session_started'), render: (s) => formatDateTime(s.created_at, locale) },
    { id: 'used', label: t('admin.users.session_used'), render: (s) => formatDateTime(s.last_used_at, locale) },
    {
      id: 'state',
      label: t('admin.users.status'),
      render: (s) => (s.live ? t('admin.users.session_live') : t('admin.users.session_ended')),
    },
  ];
  return (
    <div className="flex flex-col gap-4" data-testid="admin-user">
      <Link to="/admin/users" className="inline-flex items-center gap-1 self-start text-sm text-muted hover:text-white">
        <Icon icon={ArrowLeft} size="sm" />
        {t('admin.users.back')}
      </Link>
      {query.isError &&
        (query.error.status === 404 ? (
          <AdminEmpty>{t('admin.users.not_found')}</AdminEmpty>
        ) : (
          <AdminError onRetry={() => void query.refetch()} />
        ))}
      {query.isPending && <AdminLoading rows={4} />}
      {user && (
        <>
          <AdminCard>
            <div className="mb-4 flex flex-wrap items-center gap-2">
              <h2 className="text-lg font-semibold" data-testid="admin-user-name">
                {user.name}
              </h2>
              <RoleBadge role={user.role} />
              <StatusBadge banned={user.banned_at !== null} />
            </div>
            {user.banned_at && (
              <p className="mb-4 rounded-xl bg-red-950/50 p-3 text-sm text-red-100" data-testid="admin-user-ban">
                {t('admin.users.banned_since', { date: formatDateTime(user.banned_at, locale) })}
                {user.ban_reason ? ` — ${user.ban_reason}` : ''}
              </p>
            )}
            <dl className="grid grid-cols-1 gap-3 text-sm sm:grid-cols-2 lg:grid-cols-3">
              <Field label={t('admin.users.email')}>{user.email}</Field>
              <Field label={t('admin.users.username')}>@{user.username}</Field>
              <Field label={t('admin.users.age')}>{user.age ?? '—'}</Field>
              <Field label={t('admin.users.locale')}>{user.locale}</Field>
              <Field label={t('admin.users.created')}>{formatDateTime(user.created_at, locale)}</Field>
              <Field label={t('admin.users.email_confirmed')}>
                {user.is_email_confirmed ? t('admin.common.yes') : t('admin.common.no')}
              </Field>
              <Field label={t('admin.users.balance')}>
                <span className="text-base font-semibold" data-testid="admin-user-balance">
                  {formatBalance(user.balance, locale)}
                </span>
              </Field>
              <Field label={t('admin.users.subscription')}>
                {user.subscription ? (
                  <span data-testid="admin-user-subscription">
                    {subscriptionLine(t, user.subscription.view, locale)}
                  </span>
                ) : (
                  t('admin.users.no_subscription')
                )}
              </Field>
            </dl>
          </AdminCard>
          <Actions user={user} />
          <Ledger userId={user.id} />
          <AdminCard title={t('admin.users.payments')}>
            {user.payments.length === 0 ? (
              <AdminEmpty>{t('admin.payments.none')}</AdminEmpty>
            ) : (
              <AdminTable columns={payments} rows={user.payments} rowKey={(p) => p.id} />
            )}
          </AdminCard>
          <AdminCard title={t('admin.users.sessions')}>
            {user.sessions.length === 0 ? (
              <AdminEmpty>{t('admin.users.no_sessions')}</AdminEmpty>
            ) : (
              <AdminTable columns={sessionColumns} rows={user.sessions} rowKey={(s) => s.id} />
            )}
          </AdminCard>
        </>
      )}
    </div>
  );
}
