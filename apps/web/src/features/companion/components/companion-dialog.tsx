import '../texts';
import { Link } from 'react-router';
import { PROACTIVE_FREQUENCIES, type ProactiveFrequency } from '@reverie/shared';
import { showAlert } from '../../../components/ui/alerts';
import { Modal } from '../../../components/ui/modal';
import { Skeleton } from '../../../components/ui/page';
import { formatDateTime } from '../../../lib/format';
import { currentLocale, useTranslation } from '../../../lib/i18n';
import { useChatCompanion } from '../api/get-chat-companion';
import { useCompanionSettings } from '../api/get-companion-settings';
import { useSetChatCompanion } from '../api/set-chat-companion';

/**
 * "She can write to me first" for one chat (the chat's ⋮ menu): off by default; a frequency
 * turns it on and saves the browser's time zone when none is known. Says the care rules.
 */
export function CompanionDialog({
  chatId,
  characterName,
  open,
  onClose,
}: {
  chatId: string;
  characterName: string;
  open: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const current = useChatCompanion(chatId, open);
  const settings = useCompanionSettings(open);
  const save = useSetChatCompanion(chatId);
  const choose = async (frequency: ProactiveFrequency) => {
    try {
      await save.mutateAsync(frequency);
      showAlert(t('companion.saved'));
    } catch {
      showAlert(t('companion.save_failed'), { type: 'error' });
    }
  };
  const value = current.data?.frequency ?? 'off';
  return (
    <Modal
      open={open}
      onClose={onClose}
      title={t('companion.dialog_title', { name: characterName })}
      description={t('companion.dialog_intro', { name: characterName })}
    >
      {current.isPending ? (
        <Skeleton className="h-40 w-full" />
      ) : current.isError ? (
        <p role="alert" className="text-sm text-red-300">
          {t('companion.save_failed')}
        </p>
      ) : (
        <div className="flex flex-col gap-4" data-testid="companion-dialog">
          <fieldset className="flex flex-col gap-2">
            <legend className="mb-2 text-sm font-semibold">{t('companion.frequency')}</legend>
            {PROACTIVE_FREQUENCIES.map((frequency) => (
              <label
                key={frequency}
                className="flex cursor-pointer items-center gap-3 rounded-xl border border-white/10 px-3 py-2.5 has-checked:border-primary/60"
              >
                <input
                  type="radio"
                  name="companion-frequency"
                  value={frequency}
                  checked={value === frequency}
                  disabled={save.isPending}
                  onChange={() => void choose(frequency)}
                  data-testid={`companion-frequency-${frequency}`}
                  className="accent-primary"
                />
                <span className="text-sm">{t(`companion.frequency_${frequency}`)}</span>
              </label>
            ))}
          </fieldset>
          {value !== 'off' && (
            <p className="text-sm text-muted" data-testid="companion-next">
              {current.data.next_at
                ? t('companion.next_at', { when: formatDateTime(current.data.next_at, currentLocale()) })
                : t('companion.paused')}
            </p>
          )}
          {settings.data && (
            <p className="text-xs text-muted">
              {t('companion.care_note', {
                start: settings.data.quiet_start,
                end: settings.data.quiet_end,
                cap: settings.data.daily_cap,
              })}
            </p>
          )}
          <Link
            to="/settings#companion"
            onClick={onClose}
            className="self-start text-sm text-primary underline-offset-4 hover:underline"
          >
            {t('companion.settings_link')}
          </Link>
        </div>
      )}
    </Modal>
  );
}
