import { useState } from 'react';
import { useNavigate } from 'react-router';
import type { Locale } from '@reverie/shared';
import { useTranslation } from '../../../../lib/i18n';
import { formatDateTime } from '../../../../lib/format';
import { mediaSrc } from '../../../../lib/media';
import { Skeleton } from '../../../../components/ui/page';
import { useMessageReports } from '../../api/get-message-reports';
import { useMessageReport } from '../../api/get-message-report';
import { useResolveMessageReport } from '../../api/resolve-message-report';
import { useRemoveReportedMessage } from '../../api/remove-reported-message';
import { ConfirmAction } from '../../components/confirm-action';
import { DetailAction, DetailPage } from '../../components/detail-page';
import { actionPanelClass, NoteField } from '../../components/note-field';
import { ReportList } from './report-list';

/** A report's reason in the reader's language (a reason the texts do not know stays as sent). */
const reasonText = (t: (key: string) => string, reason: string) => {
  const key = `admin.reports.reasons.${reason}`;
  const text = t(key);
  return text === key ? reason : text;
};

/** Message reports, oldest open first. */
export function MessageReportList() {
  const { t } = useTranslation();
  return (
    <ReportList
      statuses={['open', 'resolved'] as const}
      useReports={useMessageReports}
      columns="md:grid-cols-[10rem_1fr_12rem]"
      testId="admin-message-reports"
      rowTestId="admin-message-report-row"
      toRow={(r) => ({
        id: r.id,
        to: `/admin/reports/m${r.id}`,
        title: <span className="text-sm font-medium">{reasonText(t, r.reason)}</span>,
        text: r.message.text,
        detail: `${r.character.name} · ${r.reporter.email}`,
        createdAt: r.created_at,
      })}
    />
  );
}

/** A message report: the message with the chat around it, resolve with a note, or remove the message. */
export function MessageReportDetailView({ id }: { id: number }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language as Locale;
  const navigate = useNavigate();
  const { data, isPending, isError } = useMessageReport(id);
  const resolve = useResolveMessageReport(id);
  const remove = useRemoveReportedMessage(id);
  const [note, setNote] = useState('');
  const [failed, setFailed] = useState(false);
  const [confirming, setConfirming] = useState(false);
  if (isPending) return <Skeleton className="h-64" />;
  if (isError || !data) return <p className="text-red-300">{t('admin.reports.error')}</p>;
  const open = data.status === 'open';
  const run = async (action: () => Promise<unknown>) => {
    setFailed(false);
    try {
      await action();
    } catch {
      setFailed(true);
    }
  };
  return (
    <DetailPage
      testId="admin-message-report"
      back="/admin/reports"
      backLabel={t('admin.reports.back')}
      error={failed ? t('admin.reports.error') : null}
    >
      <div className="flex flex-col gap-2 rounded-2xl border border-white/10 bg-surface p-4 sm:p-5">
        <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[10rem_1fr]">
          <dt className="text-muted">{t('admin.reports.reason')}</dt>
          <dd className="font-medium">{reasonText(t, data.reason)}</dd>
          {data.comment && (
            <>
              <dt className="text-muted">{t('admin.reports.comment')}</dt>
              <dd className="whitespace-pre-wrap">{data.comment}</dd>
            </>
          )}
          <dt className="text-muted">{t('admin.reports.reporter')}</dt>
          <dd className="break-all">
            {data.reporter.name} · {data.reporter.email}
          </dd>
          <dt className="text-muted">{t('admin.reports.character')}</dt>
          <dd>
            {data.character.name} <span className="text-muted">/{data.character.slug}</span>
          </dd>
          <dt className="text-muted">{t('admin.reports.received')}</dt>
          <dd>{formatDateTime(data.created_at, locale)}</dd>
        </dl>
      </div>
      <h3 className="text-lg font-semibold">{t('admin.reports.context')}</h3>
      <ol className="flex flex-col gap-2" data-testid="report-context">
        {data.context.map((m) => (
          <li
            key={m.id}
            className={`max-w-[85%] rounded-2xl px-4 py-3 text-sm ${m.role === 'user' ? 'self-end bg-primary/20' : 'self-start bg-white/5'} ${
              m.reported ? 'ring-2 ring-red-400' : ''
            }`}
            data-reported={m.reported || undefined}
          >
            <p className="mb-1 text-xs text-muted">
              {t(`admin.reports.role_${m.role === 'user' || m.role === 'bot' ? m.role : 'system'}`)}
              {m.reported && <span className="ml-2 font-semibold text-red-300">{t('admin.reports.reported')}</span>}
            </p>
            <p className="whitespace-pre-wrap">{m.text}</p>
            {m.picture_url && <img src={mediaSrc(m.picture_url)} alt="" className="mt-2 max-h-48 rounded-xl" />}
          </li>
        ))}
      </ol>
      {!open && (
        <div className="rounded-2xl border border-white/10 bg-surface p-4 text-sm">
          <p className="font-medium">
            {t('admin.reports.resolved_on', {
              date: data.resolved_at ? formatDateTime(data.resolved_at, locale) : '',
            })}
          </p>
          {data.resolution && <p className="mt-1 whitespace-pre-wrap text-muted">{data.resolution}</p>}
        </div>
      )}
      {open && (
        <div className={actionPanelClass}>
          <NoteField id="report-note" label={t('admin.reports.note_label')} value={note} onChange={setNote} />
          <div className="flex flex-col gap-2 sm:flex-row">
            <DetailAction
              kind="primary"
              onClick={() => run(() => resolve.mutateAsync(note))}
              disabled={resolve.isPending}
              testId="report-resolve"
            >
              {t('admin.reports.resolve')}
            </DetailAction>
            <DetailAction
              kind="danger"
              onClick={() => setConfirming(true)}
              disabled={remove.isPending}
              testId="report-remove-message"
            >
              {t('admin.reports.remove_message')}
            </DetailAction>
          </div>
        </div>
      )}
      <ConfirmAction
        open={confirming}
        title={t('admin.reports.remove_confirm')}
        confirmLabel={t('admin.reports.remove_message')}
        danger
        reason="none"
        testId="report-remove-confirm"
        onConfirm={async () => {
          await remove.mutateAsync(note);
          await navigate('/admin/reports');
        }}
        onClose={() => setConfirming(false)}
      />
    </DetailPage>
  );
}
