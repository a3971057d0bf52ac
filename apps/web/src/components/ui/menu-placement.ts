/** The part of the window where an element can be seen: the window cut by every ancestor that clips. */
export function visibleBounds(element: Element): { top: number; bottom: number } {
  let top = 0;
  let bottom = window.innerHeight;
  for (let node = element.parentElement; node; node = node.parentElement) {
    const overflow = getComputedStyle(node).overflowY;
    if (overflow === 'visible' || overflow === '') continue;
    const rect = node.getBoundingClientRect();
    top = Math.max(top, rect.top);
    bottom = Math.min(bottom, rect.bottom);
  }
  return { top, bottom };
}

/** The gap between the button and its menu, and between the menu and the edge it may reach. */
const GAP = 8;

/**
 * Where a button's menu opens: below it when it fits there, else on the side with more room
 * (a message's menu at the bottom of the list would otherwise open under the composer, out of
 * reach). `maxHeight` is the room on that side: a longer menu scrolls within itself.
 */
export function menuPlacement(
  button: { top: number; bottom: number },
  menuHeight: number,
  bounds: { top: number; bottom: number },
): { up: boolean; maxHeight: number } {
  const below = bounds.bottom - button.bottom - GAP;
  const above = button.top - bounds.top - GAP;
  const up = menuHeight > below && above > below;
  return { up, maxHeight: Math.max(up ? above : below, 0) };
}
