import type { LucideIcon, LucideProps } from 'lucide-react';
import { ICON_SIZES, type IconSize } from '@reverie/shared';

/** An icon at one of the design sizes: sm 16, md 20, lg 24, xl 32, xxl 52. */
export function Icon({
  icon: Glyph,
  size = 'md',
  ...rest
}: { icon: LucideIcon; size?: IconSize } & Omit<LucideProps, 'size'>) {
  return <Glyph size={ICON_SIZES[size]} aria-hidden={rest['aria-label'] ? undefined : true} {...rest} />;
}
