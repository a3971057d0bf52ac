import '../../../lib/error-texts';
import '../texts';
import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { REPORT_REASONS } from '@reverie/shared';
import { showAlert } from '../../../components/ui/alerts';
import { DialogActions } from '../../../components/ui/dialog-actions';
import { Modal } from '../../../components/ui/modal';
import { useReportMessage, type ReportReason } from '../api/report-message';
import type { MessageDialogProps } from './message-dialog';

const COMMENT_MAX = 1000;

/** Reporting one message: a reason (required) and an optional comment. */
export function ReportDialog({ chatId, messageId, onClose }: MessageDialogProps) {
  const { t } = useTranslation();
  const report = useReportMessage(chatId);
  const [reason, setReason] = useState<ReportReason | null>(null);
  const [comment, setComment] = useState('');

  const close = () => {
    setReason(null);
    setComment('');
    onClose();
  };
  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!reason || !messageId) return;
    try {
      await report.mutateAsync({ messageId, reason, comment: comment.trim() || undefined });
      showAlert(t('chat.report_sent'));
      close();
    } catch {
      showAlert(t('errors.report_failed'), { type: 'error' });
    }
  };

  return (
    <Modal open={Boolean(messageId)} onClose={close} title={t('chat.report_title')} description={t('chat.report_text')}>
      <form onSubmit={(event) => void onSubmit(event)} className="flex flex-col gap-4" data-testid="report-dialog">
        <fieldset className="flex flex-col gap-2">
          <legend className="sr-only">{t('chat.report_reason')}</legend>
          {REPORT_REASONS.map((value) => (
            <label
              key={value}
              className={`flex cursor-pointer items-center gap-3 rounded-xl border px-3 py-2.5 text-sm ${
                reason === value ? 'border-primary bg-primary/10' : 'border-white/10 hover:bg-white/5'
              }`}
            >
              <input
                type="radio"
                name="reason"
                value={value}
                checked={reason === value}
                onChange={() => setReason(value)}
                className="accent-[var(--color-primary)]"
              />
              {t(`chat.report_reasons.${value}`)}
            </label>
          ))}
        </fieldset>
        <label className="flex flex-col gap-1.5 text-sm">
          {t('chat.report_comment')}
          <textarea
            value={comment}
            onChange={(event) => setComment(event.target.value)}
            maxLength={COMMENT_MAX}
            rows={3}
            className="resize-none rounded-xl border border-white/10 bg-bg px-3 py-2 focus:border-primary/60 focus:outline-none"
          />
        </label>
        <DialogActions
          cancelLabel={t('chat.cancel')}
          onCancel={close}
          actionLabel={t('chat.report_submit')}
          disabled={!reason || report.isPending}
        />
      </form>
    </Modal>
  );
}
