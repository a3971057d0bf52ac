import '../../texts';
import { useState } from 'react';
import { WEBHOOK_OUTCOMES, type AdminWebhookDelivery, type Locale } from '@reverie/shared';
import { useTranslation } from '../../../../lib/i18n';
import { formatBalance, formatDateTime, formatNumber } from '../../../../lib/format';
import { useAdminPayments } from '../../api/get-payments';
import { useWebhookDeliveries } from '../../api/get-webhook-deliveries';
import { useAdminLedger } from '../../api/get-ledger';
import { useLedgerCheck } from '../../api/check-ledger';
import { AdminTable, type AdminColumn } from '../../components/admin-table';
import { KeysetFilter, KeysetResults, useKeysetPages } from '../../components/admin-pager';
import { ledgerColumns, paymentColumns, UserLink } from '../../components/money-columns';
import { AdminCard, AdminError } from '../../components/admin-states';
import { AdminSelect } from '../../components/admin-select';
import { AdminSectionPage } from '../../components/admin-section-heading';
import { AdminTabs } from '../../components/admin-tabs';
import type { AdminSectionProps } from '../../sections';

type Tab = 'payments' | 'webhooks' | 'ledger';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function Payments() {
  const { t, i18n } = useTranslation();
  const locale = i18n.language as Locale;
  const [status, setStatus] = useState('');
  const [provider, setProvider] = useState('');
  const pages = useKeysetPages();
  const query = useAdminPayments({ status: status || undefined, provider: provider || undefined, c: pages.cursor });
  const columns = paymentColumns(t, locale, true);
  const change = (set: (v: string) => void) => (v: string) => {
    set(v);
    pages.reset();
  };
  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap gap-2">
        <AdminSelect
          label={t('admin.payments.status')}
          value={status}
          onChange={change(setStatus)}
          options={[
            { value: '', label: t('admin.common.all') },
            ...(['paid', 'pending', 'failed'] as const).map((s) => ({
              value: s,
              label: t(`admin.payments.statuses.${s}`),
            })),
          ]}
        />
        <AdminSelect
          label={t('admin.payments.provider')}
          value={provider}
          onChange={change(setProvider)}
          options={[
            { value: '', label: t('admin.common.all') },
            ...['sandbox', 'stripe', 'nowpayments'].map((p) => ({ value: p, label: p })),
          ]}
        />
      </div>
      <KeysetResults query={query} pages={pages} empty={t('admin.payments.none')}>
        {(rows) => <AdminTable testId="admin-payments-table" columns={columns} rows={rows} rowKey={(p) => p.id} />}
      </KeysetResults>
    </div>
  );
}

const OUTCOME_CLASS: Record<AdminWebhookDelivery['outcome'], string> = {
  processed: 'bg-emerald-500/15 text-emerald-200',
  duplicate: 'bg-white/10 text-muted',
  ignored: 'bg-white/10 text-muted',
  rejected: 'bg-amber-500/15 text-amber-200',
  failed: 'bg-red-500/20 text-red-200',
};

function Webhooks() {
  const { t, i18n } = useTranslation();
  const locale = i18n.language as Locale;
  const [outcome, setOutcome] = useState('');
  const pages = useKeysetPages();
  const query = useWebhookDeliveries({ outcome: outcome || undefined, c: pages.cursor });
  const columns: AdminColumn<AdminWebhookDelivery>[] = [
    { id: 'when', label: t('admin.common.when'), render: (d) => formatDateTime(d.received_at, locale) },
    { id: 'provider', label: t('admin.payments.provider'), render: (d) => d.provider },
    {
      id: 'event',
      label: t('admin.payments.event'),
      render: (d) => (
        <span className="flex flex-col">
          <span>{d.type ?? '—'}</span>
          <span className="text-xs break-all text-muted">{d.event_id ?? ''}</span>
        </span>
      ),
    },
    {
      id: 'outcome',
      label: t('admin.payments.outcome'),
      render: (d) => (
        <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${OUTCOME_CLASS[d.outcome]}`}>
          {t(`admin.payments.outcomes.${d.outcome}`)} · {d.http_status}
        </span>
      ),
    },
    {
      id: 'detail',
      label: t('admin.payments.detail'),
      render: (d) => <span className="break-all">{d.detail ?? ''}</span>,
    },
  ];
  return (
    <div className="flex flex-col gap-3">
      <AdminSelect
        label={t('admin.payments.outcome')}
        value={outcome}
        onChange={(v) => {
          setOutcome(v);
          pages.reset();
        }}
        options={[
          { value: '', label: t('admin.common.all') },
          ...WEBHOOK_OUTCOMES.map((o) => ({ value: o, label: t(`admin.payments.outcomes.${o}`) })),
        ]}
      />
      <KeysetResults query={query} pages={pages} empty={t('admin.payments.no_deliveries')}>
        {(rows) => <AdminTable testId="admin-webhooks-table" columns={columns} rows={rows} rowKey={(d) => d.id} />}
      </KeysetResults>
    </div>
  );
}

function LedgerCheck() {
  const { t, i18n } = useTranslation();
  const locale = i18n.language as Locale;
  const check = useLedgerCheck();
  const data = check.data;
  return (
    <AdminCard
      testId="admin-ledger-check"
      title={t('admin.ledger.invariant')}
      actions={
        <button
          type="button"
          onClick={() => void check.refetch()}
          disabled={check.isFetching}
          className="rounded-xl border border-white/10 px-3 py-1.5 text-sm hover:bg-white/5 disabled:opacity-50"
        >
          {t('admin.ledger.check_again')}
        </button>
      }
    >
      {check.isError && <AdminError onRetry={() => void check.refetch()} />}
      {data &&
        (data.mismatches.length === 0 ? (
          <p className="text-sm text-emerald-200" data-testid="admin-ledger-ok">
            {t('admin.ledger.all_match', {
              count: data.checked_users,
              formatted: formatNumber(data.checked_users, locale),
            })}{' '}
            <span className="text-muted">({formatDateTime(data.checked_at, locale)})</span>
          </p>
        ) : (
          <div className="flex flex-col gap-2" data-testid="admin-ledger-mismatches">
            <p className="text-sm text-red-200">{t('admin.ledger.mismatches', { count: data.mismatches.length })}</p>
            <ul className="flex flex-col gap-1 text-sm">
              {data.mismatches.map((m) => (
                <li key={m.user_id}>
                  <UserLink id={m.user_id} email={m.email} />{' '}
                  {t('admin.ledger.mismatch_line', {
                    balance: formatBalance(m.balance, locale),
                    sum: formatNumber(m.ledger_sum, locale),
                  })}
                </li>
              ))}
            </ul>
          </div>
        ))}
    </AdminCard>
  );
}

function Ledger() {
  const { t, i18n } = useTranslation();
  const locale = i18n.language as Locale;
  const pages = useKeysetPages();
  const [user, setUser] = useState('');
  const userId = UUID.test(user.trim()) ? user.trim().toLowerCase() : undefined;
  const query = useAdminLedger(userId, pages.cursor);
  const columns = ledgerColumns(t, locale, true);
  return (
    <div className="flex flex-col gap-3">
      <LedgerCheck />
      <KeysetFilter
        value={user}
        onChange={setUser}
        onReset={pages.reset}
        maxLength={36}
        label={t('admin.ledger.filter_user')}
        testId="admin-ledger-user"
        className="sm:max-w-md"
      />
      <KeysetResults query={query} pages={pages} empty={t('admin.ledger.none')}>
        {(rows) => <AdminTable testId="admin-ledger-table" columns={columns} rows={rows} rowKey={(e) => e.id} />}
      </KeysetResults>
    </div>
  );
}

/** Payments, webhook deliveries and the ledger (with its invariant checked). */
export function PaymentsSection(_props: AdminSectionProps) {
  const { t } = useTranslation();
  const [tab, setTab] = useState<Tab>('payments');
  const tabs: Tab[] = ['payments', 'webhooks', 'ledger'];
  return (
    <AdminSectionPage
      id="payments"
      title={t('admin.payments.title')}
      intro={t('admin.payments.intro')}
      testId="admin-payments"
    >
      <AdminTabs
        tabs={tabs.map((id) => ({ id, label: t(`admin.payments.tabs.${id}`) }))}
        value={tab}
        onChange={setTab}
        label={t('admin.payments.title')}
        testIdPrefix="admin-tab-"
      />
      <div role="tabpanel">
        {tab === 'payments' && <Payments />}
        {tab === 'webhooks' && <Webhooks />}
        {tab === 'ledger' && <Ledger />}
      </div>
    </AdminSectionPage>
  );
}
