import { useLayoutEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
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

/** A phone's width (under Tailwind's `sm`): where a `sheet` menu opens as a bottom sheet. */
const NARROW = '(max-width: 639.98px)';
const isNarrow = () => (typeof window.matchMedia === 'function' ? window.matchMedia(NARROW).matches : false);

/**
 * A "⋮" button that opens a menu of items (`useMenu`: arrow keys, Home/End, Escape, outside
 * click). `testId` names the button; each item is `${testId}-${item.id}` unless
 * `itemTestIdPrefix` says otherwise. A long menu (`sheet`: the chat's, about twenty entries)
 * opens on a phone as a bottom sheet across the screen's width, over a dimmed page: its
 * entries keep to one line each and the whole menu fits on the screen.
 */
export function MenuButton({
  label,
  items,
  testId,
  itemTestIdPrefix = testId,
  minWidth = 'min-w-52',
  align = 'right',
  compact = false,
  sheet = false,
}: {
  label: string;
  items: MenuItem[];
  testId: string;
  itemTestIdPrefix?: string;
  /** The open drop-down's width (Tailwind classes; a minimum by default). */
  minWidth?: string;
  /** Which edge of the button the menu lines up with (`left` for a button near the left edge). */
  align?: 'left' | 'right';
  /** A small button (in a message's action row). */
  compact?: boolean;
  /** On a phone, a bottom sheet rather than a drop-down (a long menu). */
  sheet?: boolean;
}) {
  const { open, setOpen, root, popup, itemRef, onKeyDown } = useMenu(items.length);
  // Chosen when it opens: a sheet on a narrow screen.
  const [asSheet, setAsSheet] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  // Placed once open, before it is painted: up when there is no room for it below.
  const [placement, setPlacement] = useState<{ up: boolean; maxHeight: number } | null>(null);
  useLayoutEffect(() => {
    if (!open || asSheet || !button.current || !menu.current) {
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
  }, [open, asSheet]);
  const entries = items.map((item, i) => (
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
      // Rows a finger can hit, a little tighter under a mouse: the chat's menu fits in a laptop's window.
      className={`flex w-full items-center gap-3 rounded-xl px-3 py-2 text-left text-sm outline-none hover:bg-white/10 focus:bg-white/10 ${
        asSheet ? '' : 'pointer-fine:py-1.5'
      }`}
    >
      <Icon icon={item.icon} size="md" className="shrink-0 text-muted" />
      {item.label}
    </button>
  ));
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
        onClick={() => {
          if (!open) setAsSheet(sheet && isNarrow());
          setOpen((value) => !value);
        }}
        data-testid={testId}
        className={`rounded-full text-muted hover:bg-white/10 hover:text-fg ${compact ? 'p-1' : 'p-2.5'}`}
      >
        <Icon icon={EllipsisVertical} size={compact ? 'sm' : 'md'} />
      </button>
      {open &&
        asSheet &&
        // In a portal: the header it stands in blurs its backdrop, which would make it the box a
        // `fixed` sheet is placed in. Keys still reach `onKeyDown` (React events follow the tree).
        createPortal(
          <>
            <div className="fixed inset-0 z-50 bg-black/60" aria-hidden="true" />
            <div
              ref={popup}
              role="menu"
              aria-label={label}
              data-placement="sheet"
              className="fixed inset-x-0 bottom-0 z-50 max-h-[calc(100dvh-3.5rem)] overflow-y-auto overscroll-contain rounded-t-3xl border border-white/10 bg-surface px-2 pt-2 pb-[max(0.5rem,env(safe-area-inset-bottom))] shadow-2xl"
            >
              {entries}
            </div>
          </>,
          document.body,
        )}
      {open && !asSheet && (
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
          {entries}
        </div>
      )}
    </div>
  );
}
