import { Link } from 'react-router';
import { useTranslation } from '../../lib/i18n';
import { LogIn } from 'lucide-react';
import { Icon } from '../../components/ui/icon';
import { useSession } from '../../lib/session';
import { useModal } from '../../lib/modals';
import { useRouteHandle } from '../route-meta';
import { NAV_ITEMS } from './nav-items';
import { ChatsBadgeSlot as ChatsBadge } from './chats-badge-slot';

/**
 * The bottom tab bar on mobile: Explore, Chats, Profile. For guests Chats and Login open
 * the login modal.
 */
export function TabBar({ noCurrentTab = false }: { noCurrentTab?: boolean }) {
  const { t } = useTranslation();
  const { isAuthorized } = useSession();
  const handle = useRouteHandle();
  // A "page not found" or error page shown at a tab's route (e.g. `/{slug}`) is none of the tabs.
  const tab = noCurrentTab ? null : handle.tab;
  const modal = useModal();
  const itemClass =
    'flex flex-1 flex-col items-center gap-1 py-2 text-[11px] font-medium text-muted data-[active=true]:text-primary';

  return (
    <nav
      aria-label={t('nav.tab_navigation')}
      className="fixed inset-x-0 bottom-0 z-40 flex border-t border-white/10 bg-surface/95 pb-[env(safe-area-inset-bottom)] backdrop-blur-md md:hidden"
      data-testid="tab-bar"
    >
      {NAV_ITEMS.map((item) => {
        if (!isAuthorized && item.tab === 'person') {
          return (
            <button key="login" type="button" className={itemClass} onClick={() => modal.open('login')}>
              <Icon icon={LogIn} size="lg" />
              {t('nav.login')}
            </button>
          );
        }
        if (!isAuthorized && item.membersOnly) {
          return (
            <button key={item.tab} type="button" className={itemClass} onClick={() => modal.requireAuth(item.to)}>
              <Icon icon={item.icon} size="lg" />
              {t(item.labelKey)}
            </button>
          );
        }
        return (
          <Link
            key={item.tab}
            to={item.to}
            className={itemClass}
            data-active={tab === item.tab}
            aria-current={tab === item.tab ? 'page' : undefined}
          >
            <span className="relative">
              <Icon icon={item.icon} size="lg" />
              {item.tab === 'message' && <ChatsBadge className="absolute -top-1.5 left-3.5" />}
            </span>
            {t(item.labelKey)}
          </Link>
        );
      })}
    </nav>
  );
}
