import { fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Pencil, Trash2 } from 'lucide-react';
import { MenuButton } from './menu-button';
import { menuPlacement } from './menu-placement';

const items = [
  { id: 'edit', label: 'Edit', icon: Pencil, onSelect: () => undefined },
  { id: 'delete', label: 'Delete', icon: Trash2, onSelect: () => undefined },
];

/** A box at `top`..`bottom` (the rest of the rectangle does not matter here). */
const box = (top: number, bottom: number) =>
  ({ top, bottom, left: 0, right: 0, width: 0, height: bottom - top, x: 0, y: top, toJSON: () => ({}) }) as DOMRect;

afterEach(() => vi.restoreAllMocks());

describe('menuPlacement', () => {
  it('opens below when the menu fits there', () => {
    expect(menuPlacement(box(100, 130), 200, { top: 0, bottom: 800 })).toEqual({ up: false, maxHeight: 662 });
  });

  it('opens above when it does not fit below and there is more room above', () => {
    expect(menuPlacement(box(650, 680), 200, { top: 56, bottom: 720 })).toEqual({ up: true, maxHeight: 586 });
  });

  it('stays below, scrolling within itself, when there is more room below than above', () => {
    expect(menuPlacement(box(60, 100), 900, { top: 0, bottom: 800 })).toEqual({ up: false, maxHeight: 692 });
  });
});

describe('MenuButton', () => {
  it("a message's menu at the bottom of a scrolled list opens upwards, within the list", () => {
    render(
      <div data-testid="list" style={{ overflowY: 'auto' }}>
        <MenuButton label="Message actions" items={items} testId="message-menu" compact />
      </div>,
    );
    const list = screen.getByTestId('list');
    const button = screen.getByTestId('message-menu');
    vi.spyOn(Element.prototype, 'getBoundingClientRect').mockImplementation(function (this: Element) {
      if (this === list) return box(56, 760); // the list, above the composer
      if (this === button) return box(700, 724); // the last message's "⋮"
      return box(0, 180); // the menu
    });
    fireEvent.click(button);
    const menu = screen.getByRole('menu');
    expect(menu.getAttribute('data-placement')).toBe('up');
    expect(menu.className).toContain('bottom-full');
    expect(menu.style.maxHeight).toContain('636px');
  });

  it('opens below with room to spare', () => {
    render(<MenuButton label="Message actions" items={items} testId="message-menu" compact />);
    const button = screen.getByTestId('message-menu');
    vi.spyOn(Element.prototype, 'getBoundingClientRect').mockImplementation(function (this: Element) {
      return this === button ? box(100, 124) : box(0, 180);
    });
    fireEvent.click(button);
    expect(screen.getByRole('menu').getAttribute('data-placement')).toBe('down');
  });
});

describe('MenuButton as a sheet (the chat menu)', () => {
  /** A window as narrow as a phone, or not, as far as `matchMedia('(max-width: …)')` can tell. */
  const narrow = (matches: boolean) =>
    vi
      .spyOn(window, 'matchMedia')
      .mockImplementation(
        (query: string) =>
          ({ matches, media: query, addEventListener: () => {}, removeEventListener: () => {} }) as never,
      );
  const many = Array.from({ length: 20 }, (_, i) => ({
    id: `item-${i}`,
    label: `Ein ziemlich langer deutscher Menüeintrag ${i}`,
    icon: Pencil,
    onSelect: vi.fn(),
  }));

  it('on a phone opens as a bottom sheet across the screen, outside the header, and its entries work', () => {
    narrow(true);
    render(
      <header data-testid="header">
        <MenuButton label="Chat options" items={many} testId="chat-menu" sheet />
      </header>,
    );
    fireEvent.click(screen.getByTestId('chat-menu'));
    const menu = screen.getByRole('menu');
    expect(menu.getAttribute('data-placement')).toBe('sheet');
    // Fixed to the bottom edge at full width, not inside the header (whose blurred backdrop would
    // make it the box a fixed element is placed in).
    expect(menu.className).toMatch(/\bfixed\b/);
    expect(menu.className).toContain('inset-x-0');
    expect(menu.className).toContain('bottom-0');
    expect(screen.getByTestId('header').contains(menu)).toBe(false);
    expect(screen.getAllByRole('menuitem')).toHaveLength(20);
    // A tap in the sheet is not a tap outside: the entry still gets its click.
    const entry = screen.getByTestId('chat-menu-item-19');
    fireEvent.pointerDown(entry);
    fireEvent.click(entry);
    expect(many[19]!.onSelect).toHaveBeenCalledOnce();
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('a tap on the dimmed page closes it', () => {
    narrow(true);
    render(<MenuButton label="Chat options" items={many} testId="chat-menu" sheet />);
    fireEvent.click(screen.getByTestId('chat-menu'));
    fireEvent.pointerDown(document.body);
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('on a wider screen stays a drop-down under its button', () => {
    narrow(false);
    render(<MenuButton label="Chat options" items={many} testId="chat-menu" sheet />);
    fireEvent.click(screen.getByTestId('chat-menu'));
    const menu = screen.getByRole('menu');
    expect(menu.getAttribute('data-placement')).not.toBe('sheet');
    expect(menu.className).toContain('absolute');
  });
});
