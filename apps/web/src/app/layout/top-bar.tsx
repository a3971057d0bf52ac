import { Link } from 'react-router';
import { Crown, Flame, Menu } from 'lucide-react';
import { formatBalance } from '@reverie/shared';
import { Icon } from '../../components/ui/icon';
import { Logo } from '../../components/ui/logo';
import { useProfile } from '../../lib/profile';
import { useSession } from '../../lib/session';
import { currentLocale, useTranslation } from '../../lib/i18n';
import { recordSubscribeClick } from '../../features/billing/api/record-subscribe-click';
import { useModal } from '../../lib/modals';
import { preloadPage } from '../router-preload';
import { useRouteHandle } from '../route-meta';
import { LanguagePicker } from './language-picker';
import { NAV_ITEMS } from './nav-items';
import { ChatsBadgeSlot as ChatsBadge } from './chats-badge-slot';

/** The top bar: logo, menu tabs, and Login/Create account or Get Premium/My balance. */
export function TopBar({ onOpenMenu }: { onOpenMenu: () => void }) {
  const { t } = useTranslation();
  const { isAuthorized } = useSession();
  const { isPremium, profile } = useProfile();
  const { tab } = useRouteHandle();
  const modal = useModal();
  const items = NAV_ITEMS.filter((item) => isAuthorized || !item.membersOnly);

  return (
    <header className="sticky top-0 z-40 border-b border-white/5 bg-bg/85 backdrop-blur-md">
      <div className="mx-auto flex h-16 max-w-7xl items-center gap-3 px-4 lg:px-6">
        <button
          type="button"
          className="-ml-2 rounded-full p-2 text-muted hover:bg-white/10 hover:text-fg md:hidden"
          onClick={onOpenMenu}
          aria-label={t('nav.open_menu')}
          data-testid="burger"
        >
          <Icon icon={Menu} size="lg" />
        </button>
        <Link to="/" aria-label={t('app.logo_alt', { name: '' }).trim()} className="shrink-0">
          <Logo />
        </Link>
        <nav aria-label={t('nav.main_navigation')} className="ml-6 hidden items-center gap-1 md:flex">
          {items.map((item) => (
            <Link
              key={item.tab}
              to={item.to}
              onMouseEnter={() => preloadPage(item.to)}
              onFocus={() => preloadPage(item.to)}
              aria-current={tab === item.tab ? 'page' : undefined}
              data-active={tab === item.tab}
              className="flex items-center gap-2 rounded-full px-4 py-2 text-sm font-medium text-muted transition hover:text-fg data-[active=true]:bg-primary/15 data-[active=true]:text-fg"
            >
              <Icon icon={item.icon} size="md" className={tab === item.tab ? 'text-primary' : ''} />
              {t(item.labelKey)}
              {isAuthorized && item.tab === 'message' && <ChatsBadge />}
            </Link>
          ))}
        </nav>
        <div className="ml-auto flex items-center gap-2">
          <div className="hidden sm:block">
            <LanguagePicker />
          </div>
          {isAuthorized ? (
            <>
              {!isPremium && (
                <button
                  type="button"
                  onClick={() => {
                    void recordSubscribeClick('get-premium');
                    modal.open('premium', { from: 'get-premium' });
                  }}
                  className="flex items-center gap-1.5 rounded-full bg-gradient-to-r from-primary to-secondary px-3 py-2 text-sm font-semibold text-on-primary shadow-lg shadow-primary/20 sm:px-4"
                  data-testid="get-premium"
                >
                  <Icon icon={Crown} size="sm" />
                  <span className="hidden sm:inline">{t('nav.get_premium')}</span>
                </button>
              )}
              <button
                type="button"
                onClick={() => modal.open('pw', { from: 'counter' })}
                className="flex items-center gap-2 rounded-full border border-white/10 bg-surface px-3 py-1.5 text-left hover:border-primary/50"
                aria-label={`${t('nav.my_balance')}: ${t('nav.balance_value', { count: profile?.num_tokens ?? 0 })}`}
                data-testid="balance"
              >
                <Icon icon={Flame} size="md" className="text-secondary" />
                <span className="flex flex-col leading-tight">
                  <span className="hidden text-[10px] tracking-wide text-muted uppercase sm:block">
                    {t('nav.my_balance')}
                  </span>
                  <span className="text-sm font-semibold tabular-nums">
                    {formatBalance(profile?.num_tokens ?? 0, currentLocale())}
                  </span>
                </span>
              </button>
            </>
          ) : (
            <>
              <button
                type="button"
                onClick={() => modal.open('login')}
                className="hidden rounded-full px-3 py-2 text-sm font-medium whitespace-nowrap text-fg hover:bg-white/10 sm:inline-flex sm:px-4"
              >
                {t('nav.login')}
              </button>
              <button
                type="button"
                onClick={() => modal.open('signup')}
                className="rounded-full bg-primary px-3 py-2 text-sm font-semibold whitespace-nowrap text-on-primary shadow-lg shadow-primary/25 hover:brightness-110 sm:px-4"
              >
                {t('nav.create_account')}
              </button>
            </>
          )}
        </div>
      </div>
    </header>
  );
}
