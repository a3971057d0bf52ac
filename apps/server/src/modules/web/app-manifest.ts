import sharp from 'sharp';
import type { Edition } from '@reverie/shared';

/**
 * The installable app (issue 31, docs/companion.md "Push and the app"): the web app manifest
 * and its icons, per edition (name, colours), served by the web module at
 * `/manifest.webmanifest` and `/icons/*.png`.
 */
export const APP_ICON_SIZES = [192, 512] as const;
/** Icon files: `any` (the logo on its rounded tile), `maskable` (full bleed, logo in the safe zone), Apple's touch icon. */
export const APP_ICON_FILES = /^(icon|maskable)-(192|512)\.png$|^apple-touch-icon\.png$/;

export function appManifest(edition: Edition) {
  const icons = APP_ICON_SIZES.flatMap((size) => [
    { src: `/icons/icon-${size}.png`, sizes: `${size}x${size}`, type: 'image/png', purpose: 'any' },
    { src: `/icons/maskable-${size}.png`, sizes: `${size}x${size}`, type: 'image/png', purpose: 'maskable' },
  ]);
  return {
    id: '/',
    name: edition.name,
    short_name: edition.name,
    description: edition.tagline,
    start_url: '/chat',
    scope: '/',
    display: 'standalone',
    orientation: 'portrait',
    background_color: edition.colors.background,
    theme_color: edition.colors.background,
    icons,
  };
}

/**
 * The logo (the crescent of public/favicon.svg) in the edition's colours. `maskable`: the tile
 * fills the square and the crescent keeps within the central 80 % that every mask leaves.
 */
function iconSvg(edition: Edition, maskable: boolean): string {
  const { primary, secondary, background } = edition.colors;
  const tile = `<rect width="32" height="32"${maskable ? '' : ' rx="8"'} fill="${background}"/>`;
  const moon = '<path d="M20.5 4.5a11.5 11.5 0 1 0 7 18.6A9.5 9.5 0 0 1 20.5 4.5z" fill="url(#g)"/>';
  const scaled = maskable ? `<g transform="translate(4.8 4.8) scale(0.7)">${moon}</g>` : moon;
  return (
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">' +
    `<stop offset="0" stop-color="${primary}"/><stop offset="1" stop-color="${secondary}"/></linearGradient></defs>` +
    tile +
    scaled +
    '</svg>'
  );
}

/** Renders one icon file (PNG). */
export async function renderAppIcon(edition: Edition, file: string): Promise<Buffer | null> {
  const match = APP_ICON_FILES.exec(file);
  if (!match) return null;
  const maskable = match[1] === 'maskable';
  const size = match[2] ? Number(match[2]) : 180;
  // Apple's touch icon is drawn on a full tile (iOS rounds it).
  return sharp(Buffer.from(iconSvg(edition, maskable || !match[1])), { density: (72 * size) / 32 })
    .resize(size, size)
    .png()
    .toBuffer();
}
