import '../texts';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Compass, ImageIcon, MessageCircle } from 'lucide-react';
import { LOCALE_HTML_LANG, MessageKind, type Chat } from '@reverie/shared';
import { Icon } from '../../../components/ui/icon';
import { Skeleton } from '../../../components/ui/page';
import { currentLocale } from '../../../lib/i18n';

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

/** "5 minutes ago", "yesterday", "3 weeks ago" in the interface language. */
export function relativeTime(iso: string, locale: string, now = Date.now()): string {
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return '';
  const seconds = Math.round((time - now) / 1000);
  const format = new Intl.RelativeTimeFormat(locale, { numeric: 'auto', style: 'short' });
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return format.format(Math.trunc(seconds / size), unit);
  }
  return format.format(0, 'second');
}

function preview(chat: Chat, t: (key: string) => string): { text: string; picture: boolean } {
  const last = chat.last_message;
  if (!last) return { text: t('chats.no_messages'), picture: false };
  if (last.kind === MessageKind.Image || last.kind === MessageKind.BlurImage)
    return { text: last.text || t('chats.picture'), picture: true };
  const text = last.role === 'user' ? `${t('chats.you')}: ${last.text}` : last.text;
  return { text, picture: false };
}

function ChatRow({ chat }: { chat: Chat }) {
  const { t } = useTranslation();
  const locale = LOCALE_HTML_LANG[currentLocale()];
  const when = chat.last_message?.created_at ?? chat.updated_at;
  const { text, picture } = preview(chat, t);
  return (
    <li>
      <Link
        to={`/${chat.bot.slug}`}
        data-testid="chat-row"
        className="flex items-center gap-3 rounded-2xl px-3 py-3 hover:bg-white/5 focus-visible:bg-white/5"
      >
        {chat.bot.avatar_url ? (
          <img src={chat.bot.avatar_url} alt="" className="h-14 w-14 shrink-0 rounded-full object-cover" />
        ) : (
          <span className="h-14 w-14 shrink-0 rounded-full bg-surface" aria-hidden="true" />
        )}
        <span className="flex min-w-0 flex-1 flex-col gap-0.5">
          <span className="flex items-baseline justify-between gap-2">
            <span className="truncate font-semibold" data-testid="chat-row-name">
              {chat.bot.name}
            </span>
            <time dateTime={when} className="shrink-0 text-xs text-muted">
              {relativeTime(when, locale)}
            </time>
          </span>
          <span className="flex items-center gap-1 truncate text-sm text-muted">
            {picture && <Icon icon={ImageIcon} size="sm" className="shrink-0" />}
            <span className="truncate">{text}</span>
          </span>
        </span>
      </Link>
    </li>
  );
}

/** The user's chats, newest activity first, each opening the chat with its character. */
export function ChatList({ chats }: { chats: Chat[] }) {
  const { t } = useTranslation();
  if (!chats.length) {
    return (
      <div
        className="flex flex-col items-center gap-3 rounded-3xl border border-white/10 bg-surface/60 px-6 py-12 text-center"
        data-testid="chats-empty"
      >
        <Icon icon={MessageCircle} size="xxl" className="text-primary" />
        <p className="text-lg font-semibold">{t('chats.empty_title')}</p>
        <p className="max-w-sm text-sm text-muted">{t('chats.empty_text')}</p>
        <Link
          to="/"
          className="mt-2 flex items-center gap-2 rounded-full bg-primary px-5 py-2.5 font-semibold text-on-primary shadow-lg shadow-primary/30 hover:brightness-110"
        >
          <Icon icon={Compass} size="md" />
          {t('chats.explore')}
        </Link>
      </div>
    );
  }
  return (
    <ul className="-mx-3 flex flex-col" aria-label={t('chats.list_label')} data-testid="chat-list">
      {chats.map((chat) => (
        <ChatRow key={chat.id} chat={chat} />
      ))}
    </ul>
  );
}

export function ChatListSkeleton() {
  return (
    <ul className="flex flex-col gap-4" aria-busy="true" data-testid="chats-skeleton">
      {[0, 1, 2, 3, 4].map((i) => (
        <li key={i} className="flex items-center gap-3">
          <Skeleton className="h-14 w-14 shrink-0 rounded-full" />
          <div className="flex flex-1 flex-col gap-2">
            <Skeleton className="h-4 w-1/3" />
            <Skeleton className="h-3 w-2/3" />
          </div>
        </li>
      ))}
    </ul>
  );
}
