import '../texts';
import { Link } from 'react-router';
import { useTranslation } from '../../../lib/i18n';
import {
  ArrowLeft,
  Brain,
  Cpu,
  Download,
  History,
  Pencil,
  Phone,
  SquarePen,
  Trash2,
  UserPen,
  UserRound,
} from 'lucide-react';
import { BlurredPictureHint } from '../../../components/ui/blurred-picture-hint';
import { Icon } from '../../../components/ui/icon';
import { MenuButton, type MenuItem } from '../../../components/ui/menu-button';
import { useClientConfig } from '../../../lib/client-config';

/** An entry of the chat's menu. */
export type ChatMenuItem = MenuItem;

export interface ChatHeaderProps {
  name: string;
  /** The chat's own title (renamed by the user): shown above the character's name. */
  title?: string | null;
  avatarUrl: string | null;
  onBack: () => void;
  /** The call page for this chat (`/audio?chat=<id>`, or `/audio?slug=…` without a chat yet). */
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
  editCharacter: UserPen,
} as const;

/** The chat's top bar: back, the character's avatar and name, call and the menu. */
export function ChatHeader({ name, title, avatarUrl, onBack, callHref, menu }: ChatHeaderProps) {
  const { t } = useTranslation();
  // Calls the server cannot take: the button says so (the call page explains why and what to do).
  const callsOff = useClientConfig().data?.calls.available === false;
  const callLabel = callsOff ? t('chat.call_unavailable') : t('chat.call', { name });
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
            <span className="relative shrink-0 rounded-full">
              <img src={avatarUrl} alt="" className="h-9 w-9 rounded-full object-cover" />
              <BlurredPictureHint url={avatarUrl} look="cover" />
            </span>
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
          aria-label={callLabel}
          title={callLabel}
          data-testid="chat-call"
          data-unavailable={callsOff || undefined}
          className={`rounded-full p-2.5 text-muted hover:bg-white/10 hover:text-fg ${callsOff ? 'opacity-50' : ''}`}
        >
          <Icon icon={Phone} size="md" />
        </Link>
        {menu.length > 0 && <MenuButton label={t('chat.menu')} items={menu} testId="chat-menu" />}
      </div>
    </header>
  );
}
