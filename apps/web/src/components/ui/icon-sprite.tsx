import { useId, useMemo, type ReactNode } from 'react';
import type { LucideIcon } from 'lucide-react';
import { SpriteContext } from './icon';

// Apart from `icon.tsx`: only long lists use it, and `Icon` is on every page (the landing bundle).
/**
 * Draws `icons` once, as SVG symbols, for the `Icon`s inside it, which become a `<use>` of
 * their symbol (two elements instead of the icon's whole drawing): for long lists, whose rows
 * repeat the same few icons and are made and dropped again while scrolling.
 */
export function IconSprite({ icons, children }: { icons: readonly LucideIcon[]; children: ReactNode }) {
  const prefix = useId().replace(/[^\w-]/g, '');
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the list is a constant of its caller
  const symbols = useMemo(() => new Map(icons.map((icon, i) => [icon, `icon-${prefix}-${i}`])), [prefix]);
  return (
    <SpriteContext.Provider value={symbols}>
      <svg aria-hidden="true" width="0" height="0" style={{ position: 'absolute', overflow: 'hidden' }}>
        <defs>
          {[...symbols].map(([Glyph, id]) => (
            <symbol key={id} id={id} viewBox="0 0 24 24">
              <Glyph />
            </symbol>
          ))}
        </defs>
      </svg>
      {children}
    </SpriteContext.Provider>
  );
}
