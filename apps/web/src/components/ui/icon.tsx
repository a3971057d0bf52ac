import { createContext, useContext } from 'react';
import type { LucideIcon, LucideProps } from 'lucide-react';
import { ICON_SIZES, type IconSize } from '@reverie/shared';

/** The icons drawn once as symbols in an `IconSprite` (`icon-sprite.tsx`): each icon's symbol id. */
export const SpriteContext = createContext<ReadonlyMap<LucideIcon, string> | null>(null);

/** What a sprite's `<use>` keeps of an icon's props; any other prop draws the icon in full. */
const USE_PROPS = new Set(['className', 'aria-label', 'aria-hidden', 'role']);

/** An icon at one of the design sizes: sm 16, md 20, lg 24, xl 32, xxl 52. */
export function Icon({
  icon: Glyph,
  size = 'md',
  ...rest
}: { icon: LucideIcon; size?: IconSize } & Omit<LucideProps, 'size'>) {
  const sprite = useContext(SpriteContext);
  const symbol = sprite?.get(Glyph);
  const hidden = rest['aria-label'] ? undefined : true;
  if (symbol && Object.keys(rest).every((key) => USE_PROPS.has(key))) {
    const px = ICON_SIZES[size];
    return (
      <svg
        width={px}
        height={px}
        aria-hidden={hidden}
        role={rest.role}
        aria-label={rest['aria-label']}
        className={rest.className ? `lucide ${rest.className}` : 'lucide'}
      >
        <use href={`#${symbol}`} />
      </svg>
    );
  }
  return <Glyph size={ICON_SIZES[size]} aria-hidden={hidden} {...rest} />;
}
