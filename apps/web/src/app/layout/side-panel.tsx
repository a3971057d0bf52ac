import * as Dialog from '@radix-ui/react-dialog';
import { MY_CHARACTERS_PATH } from '../../features/characters/paths';
import { Link } from 'react-router';
import { useTranslation } from '../../lib/i18n';
import { BookOpen, Plus, Wand2, X, UserRoundPen } from 'lucide-react';
import { Icon } from '../../components/ui/icon';
import { Logo } from '../../components/ui/logo';
import { useSession } from '../../lib/session';
import { useModal } from '../../lib/modals';
import { useRouteHandle } from '../route-meta';
import { LanguagePicker } from './language-picker';
import { NAV_ITEMS } from './nav-items';
import { LegalLinks } from './footer';

/** The burger's side panel on mobile: the menu, more links and the language picker. */
export function SidePanel({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { isAuthorized } = useSession();
  const { tab } = useRouteHandle();
  const modal = useModal();
  const linkClass =
    'flex items-center gap-3 rounded-2xl px-4 py-3 text-base font-medium text-muted hover:bg-white/5 hover:text-fg data-[active=true]:bg-primary/15 data-[active=true]:text-fg';

  return (
    <Dialog.Root open={open} onOpenChange={(next) => !next && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-black/60 backdrop-blur-sm md:hidden" />
        <Dialog.Content
          className="fixed inset-y-0 left-0 z-50 flex w-[min(20rem,85vw)] flex-col gap-6 overflow-y-auto border-r border-white/10 bg-surface p-5 md:hidden"
          data-testid="side-panel"
        >
          <div className="flex items-center justify-between">
            <Logo />
            <Dialog.Close className="rounded-full p-2 text-muted hover:bg-white/10" aria-label={t('nav.close_menu')}>
              <Icon icon={X} size="lg" />
            </Dialog.Close>
          </div>
          <Dialog.Title className="sr-only">{t('nav.main_navigation')}</Dialog.Title>
          <Dialog.Description className="sr-only">{t('nav.main_navigation')}</Dialog.Description>
          <nav aria-label={t('nav.main_navigation')} className="flex flex-col gap-1">
            {NAV_ITEMS.map((item) =>
              isAuthorized || !item.membersOnly ? (
                <Link
                  key={item.tab}
                  to={item.to}
                  onClick={onClose}
                  className={linkClass}
                  data-active={tab === item.tab}
                >
                  <Icon icon={item.icon} size="lg" />
                  {t(item.labelKey)}
                </Link>
              ) : (
                <button
                  key={item.tab}
                  type="button"
                  className={linkClass}
                  onClick={() => {
                    onClose();
                    modal.requireAuth(item.to);
                  }}
                >
                  <Icon icon={item.icon} size="lg" />
                  {t(item.labelKey)}
                </button>
              ),
            )}
            <button
              type="button"
              className={linkClass}
              onClick={() => {
                onClose();
                if (isAuthorized) modal.open('create');
                else modal.requireAuth('/?create=1');
              }}
            >
              <Icon icon={Plus} size="lg" />
              {t('nav.create_character')}
            </button>
            {isAuthorized && (
              <Link to={MY_CHARACTERS_PATH} onClick={onClose} className={linkClass} data-testid="nav-my-characters">
                <Icon icon={UserRoundPen} size="lg" />
                {t('nav.my_characters')}
              </Link>
            )}
            <Link to="/transform" onClick={onClose} className={linkClass}>
              <Icon icon={Wand2} size="lg" />
              {t('nav.transform')}
            </Link>
            <Link to="/blog" onClick={onClose} className={linkClass}>
              <Icon icon={BookOpen} size="lg" />
              {t('nav.blog')}
            </Link>
          </nav>
          <section className="flex flex-col gap-3">
            <h2 className="px-1 text-xs font-semibold tracking-wide text-muted uppercase">{t('language.label')}</h2>
            <LanguagePicker variant="list" />
          </section>
          <div className="mt-auto text-sm">
            <LegalLinks />
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
