import '../texts';
import { useTranslation } from '../../../lib/i18n';
import { Link } from 'react-router';
import { Phone } from 'lucide-react';
import { Icon } from '../../../components/ui/icon';

export interface CallPickerItem {
  chatId: string;
  name: string;
  avatarUrl: string | null;
  /** The chat's title, when it has one. */
  title: string | null;
}

/** `/audio` without a character: the user's chats, each with a call button. */
export function CallPicker({ items }: { items: CallPickerItem[] }) {
  const { t } = useTranslation();
  if (items.length === 0) {
    return (
      <div className="flex flex-col items-center gap-4 py-12 text-center" data-testid="call-picker-empty">
        <p className="max-w-sm text-muted">{t('calls.pick_empty')}</p>
        <Link to="/" className="rounded-full bg-primary px-5 py-2.5 text-sm font-semibold text-on-primary">
          {t('calls.pick_explore')}
        </Link>
      </div>
    );
  }
  return (
    <ul className="flex flex-col divide-y divide-white/5" data-testid="call-picker">
      {items.map((item) => (
        <li key={item.chatId} className="flex items-center gap-3 py-3">
          {item.avatarUrl ? (
            <img src={item.avatarUrl} alt="" className="h-12 w-12 shrink-0 rounded-full object-cover" />
          ) : (
            <span className="h-12 w-12 shrink-0 rounded-full bg-surface" aria-hidden="true" />
          )}
          <span className="flex min-w-0 flex-1 flex-col">
            <span className="truncate font-semibold">{item.name}</span>
            {item.title && <span className="truncate text-sm text-muted">{item.title}</span>}
          </span>
          <Link
            to={`/audio?chat=${encodeURIComponent(item.chatId)}`}
            aria-label={t('calls.pick_call', { name: item.name })}
            title={t('calls.pick_call', { name: item.name })}
            data-testid="call-picker-call"
            className="flex h-11 w-11 shrink-0 items-center justify-center rounded-full bg-primary text-on-primary hover:opacity-90"
          >
            <Icon icon={Phone} size="md" />
          </Link>
        </li>
      ))}
    </ul>
  );
}
