import './texts';
import { useEffect } from 'react';
import { WifiOff } from 'lucide-react';
import { API_BASE_URL } from '../../lib/config';
import { backOnline } from '../../lib/pwa';
import { useTranslation } from '../../lib/i18n';
import { readChatsSnapshot } from '../../lib/chats-snapshot';
import { Icon } from '../ui/icon';
import { UnreadBadge } from '../ui/unread-badge';

const PROBE_MS = 5000;

/**
 * The offline page: shown instead of the app while the browser has no network (the service
 * worker served the shell), with the last chats list the app kept (lib/pwa.ts).
 */
export function OfflinePage() {
  const { t } = useTranslation();
  const chats = readChatsSnapshot();
  // The server is asked every few seconds; the app returns by itself once it answers.
  useEffect(() => {
    const probe = setInterval(() => {
      if (navigator.onLine === false) return;
      void fetch(`${API_BASE_URL}/api/health`, { cache: 'no-store' }).then(
        (response) => {
          if (response.ok) backOnline();
        },
        () => undefined,
      );
    }, PROBE_MS);
    return () => clearInterval(probe);
  }, []);
  return (
    <main className="mx-auto flex min-h-dvh max-w-2xl flex-col gap-4 px-4 py-10" data-testid="offline-page">
      <div className="flex items-center gap-3">
        <Icon icon={WifiOff} size="xl" className="text-primary" />
        <h1 className="text-2xl font-semibold">{t('app.offline_title')}</h1>
      </div>
      <p className="text-muted">{chats.length ? t('app.offline_text') : t('app.offline_empty')}</p>
      {chats.length > 0 && (
        <ul className="flex flex-col" data-testid="offline-chats">
          {chats.map((chat) => (
            <li key={chat.id}>
              <a
                href={chat.path}
                className="flex items-center gap-3 rounded-2xl px-3 py-3 hover:bg-white/5"
                data-testid="offline-chat"
              >
                <span className="flex min-w-0 flex-1 flex-col">
                  <span className="truncate font-semibold">{chat.name}</span>
                  <span className="truncate text-sm text-muted">{chat.preview}</span>
                </span>
                <UnreadBadge count={chat.unread} />
              </a>
            </li>
          ))}
        </ul>
      )}
      <button
        type="button"
        className="self-start rounded-full border border-white/15 px-5 py-2.5 text-sm font-semibold hover:bg-white/5"
        onClick={() => location.reload()}
      >
        {t('app.offline_retry')}
      </button>
    </main>
  );
}
