import '../texts';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import {
  ArrowLeft,
  Brain,
  Cpu,
  Download,
  EllipsisVertical,
  History,
  Pencil,
  Phone,
  SquarePen,
  Trash2,
  UserRound,
} from 'lucide-react';
import { Icon } from '../../../components/ui/icon';
import { useMenu } from '../../../components/ui/use-menu';

export interface ChatMenuItem {
  id: string;
  label: string;
  icon: typeof Brain;
  onSelect: () => void;
}

export interface ChatHeaderProps {
  name: string;
  /** The chat's own title (renamed by the user): shown above the character's name. */
  title?: string | null;
  avatarUrl: string | null;
  onBack: () => void;
  /** The call page for this character (`/audio?slug=…`). */
  callHref: string;
  /** The menu's entries; no menu when empty (a guest). */
  menu: ChatMenuItem[];
}

export const CHAT_MENU_ICONS = {
  memories: Brain,
  model: Cpu,
  persona: UserRound,
  newChat: SquarePen,
  history: History,
  rename: Pencil,
  delete: Trash2,
  card: Download,
} as const;

/** The chat's menu button (`useMenu`: arrow keys, Home/End, Escape, outside click). */
function ChatMenu({ items }: { items: ChatMenuItem[] }) {
  const { t } = useTranslation();
  const { open, setOpen, root, itemRef, onKeyDown } = useMenu(items.length);

  return (
    <div ref={root} className="relative" onKeyDown={onKeyDown}>
      <button
        type="button"
        aria-label={t('chat.menu')}
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => setOpen((value) => !value)}
        data-testid="chat-menu"
        className="rounded-full p-2.5 text-muted hover:bg-white/10 hover:text-fg"
      >
        <Icon icon={EllipsisVertical} size="md" />
      </button>
      {open && (
        <div
          role="menu"
          aria-label={t('chat.menu')}
          className="absolute right-0 z-40 mt-1 min-w-52 rounded-2xl border border-white/10 bg-surface p-1.5 shadow-2xl"
        >
          {items.map((item, i) => (
            <button
              key={item.id}
              ref={itemRef(i)}
              type="button"
              role="menuitem"
              tabIndex={-1}
              onClick={() => {
                setOpen(false);
                item.onSelect();
              }}
              data-testid={`chat-menu-${item.id}`}
              className="flex w-full items-center gap-3 rounded-xl px-3 py-2.5 text-left text-sm outline-none hover:bg-white/10 focus:bg-white/10"
            >
              <Icon icon={item.icon} size="md" className="text-muted" />
              {item.label}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}

/** The chat's top bar: back, the character's avatar and name, call and the menu. */
export function ChatHeader({ name, title, avatarUrl, onBack, callHref, menu }: ChatHeaderProps) {
  const { t } = useTranslation();
  return (
    <header className="sticky top-0 z-30 border-b border-white/10 bg-bg/90 pt-[env(safe-area-inset-top)] backdrop-blur">
      <div className="mx-auto flex h-14 w-full max-w-3xl items-center gap-1 px-1.5 sm:px-3">
        <button
          type="button"
          onClick={onBack}
          aria-label={t('chat.back')}
          data-testid="chat-back"
          className="rounded-full p-2.5 text-muted hover:bg-white/10 hover:text-fg"
        >
          <Icon icon={ArrowLeft} size="md" />
        </button>
        <div className="flex min-w-0 flex-1 items-center gap-2.5">
          {avatarUrl ? (
            <img src={avatarUrl} alt="" className="h-9 w-9 shrink-0 rounded-full object-cover" />
          ) : (
            <span className="h-9 w-9 shrink-0 rounded-full bg-surface" aria-hidden="true" />
          )}
          {title ? (
            <div className="flex min-w-0 flex-col">
              <h1 className="truncate text-base leading-tight font-semibold" data-testid="chat-title">
                {title}
              </h1>
              <span className="truncate text-xs text-muted" data-testid="chat-character-name">
                {name}
              </span>
            </div>
          ) : (
            <h1 className="truncate text-base font-semibold" data-testid="chat-title">
              {name}
            </h1>
          )}
        </div>
        <Link
          to={callHref}
          aria-label={t('chat.call', { name })}
          title={t('chat.call', { name })}
          data-testid="chat-call"
          className="rounded-full p-2.5 text-muted hover:bg-white/10 hover:text-fg"
        >
          <Icon icon={Phone} size="md" />
        </Link>
        {menu.length > 0 && <ChatMenu items={menu} />}
      </div>
    </header>
  );
}
