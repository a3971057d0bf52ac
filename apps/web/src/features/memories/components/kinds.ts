import { CalendarHeart, Heart, type LucideIcon, NotebookPen, Sparkles, UserRound } from 'lucide-react';
import type { MemoryKind } from '@reverie/shared';

/** The page's groups, in the order it shows them, each with its icon. */
export const KIND_ORDER: readonly MemoryKind[] = ['user', 'relationship', 'event', 'character', 'story'];

export const KIND_ICONS: Record<MemoryKind, LucideIcon> = {
  user: UserRound,
  relationship: Heart,
  event: CalendarHeart,
  character: Sparkles,
  story: NotebookPen,
};
