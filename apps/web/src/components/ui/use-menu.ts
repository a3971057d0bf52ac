import { useEffect, useRef, useState, type KeyboardEvent } from 'react';

/**
 * The behaviour of a menu button (WAI-ARIA menu pattern): opening focuses an item
 * (`initialIndex`), arrow keys move round the items, Home/End jump, Escape closes and returns
 * focus to the button (`[aria-haspopup]`), Tab or a click outside closes. Hand-written rather
 * than a popover library to keep the landing route's JavaScript small.
 */
export function useMenu(count: number, initialIndex = 0) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  /** The open menu when it is drawn outside `root` (a bottom sheet in a portal): a tap in it is not outside. */
  const popup = useRef<HTMLDivElement>(null);
  const items = useRef<(HTMLButtonElement | null)[]>([]);

  useEffect(() => {
    if (!open) return;
    // Without scrolling: a menu still being placed (menu-button.tsx) must not move the page or
    // the list under it to reach its first item.
    items.current[Math.max(0, initialIndex)]?.focus({ preventScroll: true });
    const onPointer = (event: PointerEvent) => {
      const target = event.target as Node;
      if (!root.current?.contains(target) && !popup.current?.contains(target)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointer);
    return () => document.removeEventListener('pointerdown', onPointer);
  }, [open, initialIndex]);

  const onKeyDown = (event: KeyboardEvent) => {
    if (!open) return;
    const index = items.current.findIndex((item) => item === document.activeElement);
    const focus = (i: number) => items.current[(i + count) % count]?.focus();
    if (event.key === 'ArrowDown') focus(index + 1);
    else if (event.key === 'ArrowUp') focus(index - 1);
    else if (event.key === 'Home') focus(0);
    else if (event.key === 'End') focus(count - 1);
    else if (event.key === 'Escape' || event.key === 'Tab') {
      setOpen(false);
      if (event.key === 'Escape') root.current?.querySelector<HTMLButtonElement>('[aria-haspopup]')?.focus();
      return;
    } else return;
    event.preventDefault();
  };

  /** The ref callback of item `i`. */
  const itemRef = (i: number) => (element: HTMLButtonElement | null) => {
    items.current[i] = element;
  };

  return { open, setOpen, root, popup, itemRef, onKeyDown };
}
