import { Compass, MessageCircle, UserRound, type LucideIcon } from 'lucide-react';
import type { TabKey } from '../route-meta';

export interface NavItem {
  tab: Exclude<TabKey, null>;
  to: string;
  labelKey: string;
  icon: LucideIcon;
  /** Guests need an account for it: the login modal opens instead. */
  membersOnly: boolean;
}

/** Explore, Chats, Profile — the tabs of the top menu, side panel and bottom tab bar. */
export const NAV_ITEMS: NavItem[] = [
  { tab: 'explore', to: '/', labelKey: 'nav.explore', icon: Compass, membersOnly: false },
  { tab: 'message', to: '/chat', labelKey: 'nav.chats', icon: MessageCircle, membersOnly: true },
  { tab: 'person', to: '/settings', labelKey: 'nav.profile', icon: UserRound, membersOnly: true },
];
