import '../texts';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useTranslation } from '../../../lib/i18n';
import {
  BookOpen,
  Brain,
  BrainCog,
  CalendarSearch,
  Cpu,
  Download,
  Upload,
  GitBranch,
  History,
  MessageSquareText,
  NotebookPen,
  MessageCircleHeart,
  Pencil,
  Phone,
  ScrollText,
  SquarePen,
  Trash2,
  UserPen,
  UserRound,
  UserPlus,
  Users,
  MapPin,
} from 'lucide-react';
import { BackHeader, HeaderAvatar } from '../../../components/ui/back-header';
import { Icon } from '../../../components/ui/icon';
import { MenuButton, type MenuItem } from '../../../components/ui/menu-button';
import { useClientConfig } from '../../../lib/client-config';
import { StackedFaces } from './stacked-faces';

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
  /** More buttons before the call (search in the chat, the branch switcher). */
  actions?: ReactNode;
  /** A group chat: its characters' faces instead of one picture. */
  faces?: { name: string; avatar_url: string | null }[];
  /** A group chat: the call button asks whom to call (calls stay one to one) instead of opening `callHref`. */
  onCall?: () => void;
}

export const CHAT_MENU_ICONS = {
  remembers: Brain,
  memories: ScrollText,
  remember: BrainCog,
  model: Cpu,
  persona: UserRound,
  newChat: SquarePen,
  history: History,
  rename: Pencil,
  delete: Trash2,
  card: Download,
  importChat: Upload,
  editCharacter: UserPen,
  branches: GitBranch,
  suggestions: MessageSquareText,
  jump: CalendarSearch,
  authorNote: NotebookPen,
  lorebooks: BookOpen,
  writeFirst: MessageCircleHeart,
  addCharacter: UserPlus,
  people: Users,
  setting: MapPin,
} as const;

/** The chat's top bar: back, the character's avatar and name, call and the menu. */
export function ChatHeader({
  name,
  title,
  avatarUrl,
  onBack,
  callHref,
  menu,
  actions,
  faces,
  onCall,
}: ChatHeaderProps) {
  const { t } = useTranslation();
  // Calls the server cannot take: the button says so (the call page explains why and what to do).
  const callsOff = useClientConfig().data?.calls.available === false;
  const callLabel = callsOff ? t('chat.call_unavailable') : t('chat.call', { name });
  return (
    <BackHeader backLabel={t('chat.back')} onBack={onBack} backTestId="chat-back" gap="gap-1">
      <div className="flex min-w-0 flex-1 items-center gap-2.5">
        {faces ? <StackedFaces faces={faces} size="sm" /> : <HeaderAvatar url={avatarUrl} />}
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
      {actions}
      {onCall ? (
        <button
          type="button"
          onClick={onCall}
          aria-label={callsOff ? t('chat.call_unavailable') : t('scenes.call_title')}
          title={callsOff ? t('chat.call_unavailable') : t('scenes.call_title')}
          data-testid="chat-call"
          data-unavailable={callsOff || undefined}
          className={`rounded-full p-2.5 text-muted hover:bg-white/10 hover:text-fg ${callsOff ? 'opacity-50' : ''}`}
        >
          <Icon icon={Phone} size="md" />
        </button>
      ) : (
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
      )}
      {menu.length > 0 && (
        // About twenty entries: as wide as its longest on a computer (one line each, up to 20 rem),
        // a bottom sheet on a phone; either way it fits on the screen.
        <MenuButton label={t('chat.menu')} items={menu} testId="chat-menu" minWidth="w-max min-w-52 max-w-80" sheet />
      )}
    </BackHeader>
  );
}
