import { useLayoutEffect, useRef, useState } from 'react';
import { EllipsisVertical, type LucideIcon } from 'lucide-react';
import { Icon } from './icon';
import { menuPlacement, visibleBounds } from './menu-placement';
import { useMenu } from './use-menu';

export interface MenuItem {
  id: string;
  label: string;
  icon: LucideIcon;
  onSelect: () => void;
}

/**
 * A "⋮" button that opens a menu of items (`useMenu`: arrow keys, Home/End, Escape, outside
 * click). `testId` names the button; each item is `${testId}-${item.id}` unless
 * `itemTestIdPrefix` says otherwise.
 */
export function MenuButton({
  label,
  items,
  testId,
  itemTestIdPrefix = testId,
  minWidth = 'min-w-52',
  align = 'right',
  compact = false,
}: {
  label: string;
  items: MenuItem[];
  testId: string;
  itemTestIdPrefix?: string;
  /** The open menu's minimum width (a Tailwind class). */
  minWidth?: string;
  /** Which edge of the button the menu lines up with (`left` for a button near the left edge). */
  align?: 'left' | 'right';
  /** A small button (in a message's action row). */
  compact?: boolean;
}) {
  const { open, setOpen, root, itemRef, onKeyDown } = useMenu(items.length);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  // Placed once open, before it is painted: up when there is no room for it below.
  const [placement, setPlacement] = useState<{ up: boolean; maxHeight: number } | null>(null);
  useLayoutEffect(() => {
    if (!open || !button.current || !menu.current) {
      setPlacement(null);
      return;
    }
    setPlacement(
      menuPlacement(
        button.current.getBoundingClientRect(),
        menu.current.getBoundingClientRect().height,
        visibleBounds(button.current),
      ),
    );
  }, [open]);
  return (
    // Positioned only while open (the menu is placed from it): a closed menu in each row of a
    // long list adds no box of its own to paint (docs/chat.md "Long chats").
    <div ref={root} className={open ? 'relative' : undefined} onKeyDown={onKeyDown}>
      <button
        ref={button}
        type="button"
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => setOpen((value) => !value)}
        data-testid={testId}
        className={`rounded-full text-muted hover:bg-white/10 hover:text-fg ${compact ? 'p-1' : 'p-2.5'}`}
      >
        <Icon icon={EllipsisVertical} size={compact ? 'sm' : 'md'} />
      </button>
      {open && (
        <div
          ref={menu}
          role="menu"
          aria-label={label}
          data-placement={placement?.up ? 'up' : 'down'}
          style={placement ? { maxHeight: `min(${placement.maxHeight}px, calc(100dvh - 5rem))` } : undefined}
          className={`absolute ${align === 'left' ? 'left-0' : 'right-0'} z-40 ${
            placement?.up ? 'bottom-full mb-1' : 'mt-1'
          } max-h-[calc(100dvh-5rem)] ${minWidth} overflow-y-auto overscroll-contain rounded-2xl border border-white/10 bg-surface p-1.5 shadow-2xl`}
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
              data-testid={`${itemTestIdPrefix}-${item.id}`}
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
