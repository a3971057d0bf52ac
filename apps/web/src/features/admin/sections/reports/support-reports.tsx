import '../../texts';
import { useState } from 'react';
import type { Locale } from '@reverie/shared';
import { useTranslation } from '../../../../lib/i18n';
import { formatDateTime } from '../../../../lib/format';
import { toApiRequestError } from '../../../../lib/api-client';
import { Skeleton } from '../../../../components/ui/page';
import { useSupportReports } from '../../api/get-support-reports';
import { useSupportReport } from '../../api/get-support-report';
import { useAnswerSupportReport } from '../../api/answer-support-report';
import { useCloseSupportReport } from '../../api/close-support-report';
import { DetailAction, DetailPage } from '../../components/detail-page';
import { actionPanelClass, NoteField } from '../../components/note-field';
import { ReportList } from './report-list';

/** Support reports (Settings → report an issue), oldest open first. */
export function SupportReportList() {
  const { t } = useTranslation();
  return (
    <ReportList
      statuses={['open', 'closed'] as const}
      useReports={useSupportReports}
      columns="md:grid-cols-[14rem_1fr_12rem]"
      testId="admin-support-reports"
      rowTestId="admin-support-report-row"
      toRow={(r) => ({
        id: r.id,
        to: `/admin/reports/s${r.id}`,
        title: <span className="truncate text-sm font-medium">{r.subject || t('admin.reports.no_subject')}</span>,
        text: r.text,
        detail: r.email ?? t('admin.reports.no_email'),
        createdAt: r.created_at,
      })}
    />
  );
}

/** The answer's refusals that have their own text (the server's stable codes). */
const ANSWER_ERRORS = new Set(['already_answered', 'report_closed', 'mail_not_queued']);

/** A support report: answered by e-mail from here, or closed. */
export function SupportReportDetailView({ id }: { id: string }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language as Locale;
  const { data, isPending, isError, refetch } = useSupportReport(id);
  const answer = useAnswerSupportReport(id);
  const close = useCloseSupportReport(id);
  const [text, setText] = useState('');
  const [keepOpen, setKeepOpen] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);
  if (isPending) return <Skeleton className="h-64" />;
  if (isError || !data) return <p className="text-red-300">{t('admin.reports.error')}</p>;
  const run = async (action: () => Promise<unknown>) => {
    setFailed(null);
    try {
      await action();
    } catch (error) {
      const code = toApiRequestError(error).code;
      // An answer sent already or a closed report: the report as it is now shows why.
      if (code === 'already_answered' || code === 'report_closed') void refetch();
      setFailed(code && ANSWER_ERRORS.has(code) ? `admin.reports.error_${code}` : 'admin.reports.error');
    }
  };
  const when = (iso: string) => formatDateTime(iso, locale);
  return (
    <DetailPage
      testId="admin-support-report"
      back="/admin/reports"
      backLabel={t('admin.reports.back')}
      error={failed ? t(failed) : null}
    >
      <div className="flex flex-col gap-3 rounded-2xl border border-white/10 bg-surface p-4 sm:p-5">
        <h2 className="text-lg font-semibold">{data.subject || t('admin.reports.no_subject')}</h2>
        <p className="text-sm text-muted">
          {data.user ? `${data.user.name} · ` : `${t('admin.reports.guest')} · `}
          {data.email ?? t('admin.reports.no_email')} · {when(data.created_at)}
        </p>
        <p className="rounded-xl bg-white/5 p-3 text-sm whitespace-pre-wrap">{data.text}</p>
      </div>
      {data.answer && (
        <div className="flex flex-col gap-1 rounded-2xl border border-white/10 bg-surface p-4 text-sm">
          <p className="text-muted">
            {t('admin.reports.answered_on', { date: data.answered_at ? when(data.answered_at) : '' })}
          </p>
          <p className="whitespace-pre-wrap">{data.answer}</p>
        </div>
      )}
      {data.status === 'closed' && (
        <p className="text-sm text-muted">
          {t('admin.reports.closed_on', { date: data.closed_at ? when(data.closed_at) : '' })}
        </p>
      )}
      {data.status === 'open' && (
        <div className={actionPanelClass}>
          {data.email ? (
            <>
              <NoteField
                id="support-answer"
                label={t('admin.reports.answer_label', { email: data.email })}
                rows={5}
                value={text}
                onChange={setText}
              />
              <label className="flex items-center gap-2 text-sm text-muted">
                <input type="checkbox" checked={keepOpen} onChange={(e) => setKeepOpen(e.target.checked)} />
                {t('admin.reports.keep_open')}
              </label>
            </>
          ) : (
            <p className="text-sm text-muted">{t('admin.reports.no_email')}</p>
          )}
          <div className="flex flex-col gap-2 sm:flex-row">
            {data.email && (
              <DetailAction
                kind="primary"
                onClick={() =>
                  run(async () => {
                    await answer.mutateAsync({ answer: text, close: !keepOpen });
                    setText('');
                  })
                }
                disabled={answer.isPending || !text.trim()}
                testId="support-answer-send"
              >
                {t('admin.reports.answer_send')}
              </DetailAction>
            )}
            <DetailAction
              kind="secondary"
              onClick={() => run(() => close.mutateAsync())}
              disabled={close.isPending}
              testId="support-close"
            >
              {t('admin.reports.close')}
            </DetailAction>
          </div>
        </div>
      )}
    </DetailPage>
  );
}
