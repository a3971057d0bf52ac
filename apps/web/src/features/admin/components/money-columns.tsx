import { Link } from 'react-router';
import type { AdminLedgerEntry, AdminPayment, Locale } from '@reverie/shared';
import { formatBalance, formatDateTime, formatPrice } from '../../../lib/format';
import type { AdminColumn } from './admin-table';

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** A user's e-mail linking to their page in the console ("—" without a user). */
export const UserLink = ({ id, email }: { id: string | null; email: string | null }) =>
  id ? (
    <Link
      to={`/admin/users/${id}`}
      className="break-all text-primary hover:underline"
      onClick={(e) => e.stopPropagation()}
    >
      {email ?? id}
    </Link>
  ) : (
    <span className="text-muted">—</span>
  );

/** A completed checkout that started a free trial and charged nothing. */
const isTrialStart = (p: AdminPayment) => p.status === 'paid' && p.amount_cents === 0 && p.trial_days > 0;

/** The "whose" column of a table of payments or ledger entries. */
const userColumns = <T extends { user_id: string | null; user_email: string | null }>(
  t: Translate,
  withUser: boolean,
): AdminColumn<T>[] =>
  withUser
    ? [
        {
          id: 'user',
          label: t('admin.payments.user'),
          render: (row) => <UserLink id={row.user_id} email={row.user_email} />,
        },
      ]
    : [];

/**
 * The payments table's columns, in the Payments section (`withUser`: whose payment) and on a
 * user's page.
 */
export function paymentColumns(t: Translate, locale: Locale, withUser: boolean): AdminColumn<AdminPayment>[] {
  return [
    { id: 'when', label: t('admin.common.when'), render: (p) => formatDateTime(p.created_at, locale) },
    ...userColumns<AdminPayment>(t, withUser),
    { id: 'plan', label: t('admin.payments.plan'), render: (p) => p.plan },
    {
      id: 'amount',
      label: t('admin.payments.amount'),
      className: 'tabular-nums md:text-right',
      // What was charged: a trial checkout charged nothing; a refund is shown beside it.
      render: (p) => (
        <span>
          {formatPrice(p.amount_cents, p.currency, locale)}
          {p.trial_days > 0 && (
            <span className="block text-xs text-muted">{t('admin.payments.trial', { count: p.trial_days })}</span>
          )}
          {p.refunded_cents > 0 && (
            <span className="block text-xs text-amber-300">
              {t('admin.payments.refunded', { amount: formatPrice(p.refunded_cents, p.currency, locale) })}
            </span>
          )}
        </span>
      ),
    },
    {
      id: 'status',
      label: t('admin.payments.status'),
      render: (p) => (
        <span>
          {/* A trial's checkout took no money: "Trial started", never "Paid" beside $0. */}
          {t(`admin.payments.statuses.${isTrialStart(p) ? 'trial_started' : p.status}`)}
          {p.refund_reason && (
            <span className="block text-xs text-amber-300">
              {t('admin.payments.refund', { reason: p.refund_reason })}
            </span>
          )}
        </span>
      ),
    },
    { id: 'provider', label: t('admin.payments.provider'), render: (p) => p.provider },
  ];
}

/** The ledger's columns, in the Payments section (`withUser`: whose balance) and on a user's page. */
export function ledgerColumns(t: Translate, locale: Locale, withUser: boolean): AdminColumn<AdminLedgerEntry>[] {
  return [
    { id: 'when', label: t('admin.common.when'), render: (e) => formatDateTime(e.created_at, locale) },
    ...userColumns<AdminLedgerEntry>(t, withUser),
    {
      id: 'amount',
      label: t('admin.users.amount'),
      className: 'tabular-nums md:text-right',
      render: (e) => (
        <span className={e.amount > 0 ? 'text-emerald-300' : 'text-red-300'}>
          {e.amount > 0 ? '+' : '−'}
          {formatBalance(Math.abs(e.amount), locale)}
        </span>
      ),
    },
    { id: 'reason', label: t('admin.ledger.reason'), render: (e) => t(`admin.ledger.reasons.${e.reason}`) },
    {
      id: 'reference',
      label: t('admin.ledger.reference'),
      render: (e) => <span className="break-all">{e.reference}</span>,
    },
  ];
}
