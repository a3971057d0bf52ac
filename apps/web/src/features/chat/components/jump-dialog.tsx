import '../texts';
import { useState, type FormEvent } from 'react';
import { Modal } from '../../../components/ui/modal';
import { useTranslation } from '../../../lib/i18n';
import type { HistoryAnchor } from '../api/get-history';
import { DialogActions } from '../../../components/ui/dialog-actions';

const input = 'rounded-xl border border-white/10 bg-bg px-3 py-2 focus:border-primary/60 focus:outline-none';

/** A day as `<input type="date">` writes it (the reader's own calendar day). */
const today = () => {
  const now = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
};

/**
 * "Go to…" in a long chat (docs/chat.md "Long chats"): the first message, or the first message
 * of a day (midnight where the reader is).
 */
export function JumpDialog({
  open,
  onClose,
  onJump,
}: {
  open: boolean;
  onClose: () => void;
  onJump: (anchor: HistoryAnchor) => void;
}) {
  const { t } = useTranslation();
  const [day, setDay] = useState('');
  const go = (anchor: HistoryAnchor) => {
    onJump(anchor);
    onClose();
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const start = new Date(`${day}T00:00:00`);
    if (!day || Number.isNaN(start.getTime())) return;
    go({ kind: 'date', at: start.toISOString() });
  };
  return (
    <Modal open={open} onClose={onClose} title={t('chat.jump_title')} size="sm">
      <div className="flex flex-col gap-4">
        <button
          type="button"
          onClick={() => go({ kind: 'first' })}
          className="rounded-xl border border-white/10 px-4 py-3 text-left text-sm hover:bg-white/5"
          data-testid="jump-first"
        >
          {t('chat.jump_first')}
        </button>
        <form onSubmit={onSubmit} className="flex flex-col gap-2">
          <label className="flex flex-col gap-1.5 text-sm">
            <span>{t('chat.jump_date_label')}</span>
            <input
              type="date"
              value={day}
              max={today()}
              onChange={(event) => setDay(event.target.value)}
              className={input}
              data-testid="jump-date"
            />
          </label>
          <DialogActions
            className="mt-3 flex justify-end gap-2"
            cancelLabel={t('chat.cancel')}
            onCancel={onClose}
            actionLabel={t('chat.jump_date_go')}
            disabled={!day}
            testId="jump-date-go"
          />
        </form>
      </div>
    </Modal>
  );
}
