import { Lock } from 'lucide-react';
import { Link, useLocation } from 'react-router';
import { useTranslation } from '../../lib/i18n';
import { isBlurredPicture } from '../../lib/media';
import { useSession } from '../../lib/session';
import { Icon } from './icon';

const LOOKS = {
  /** Centred over a large picture (a catalogue card, a gallery picture at full size). */
  pill: 'bg-black/65 hover:bg-black/80 top-1/2 left-1/2 max-w-[90%] -translate-x-1/2 -translate-y-1/2 gap-1.5 px-3 py-1.5 text-sm',
  /** Over the bottom of a round avatar. */
  badge: 'bg-black/65 hover:bg-black/80 bottom-1 left-1/2 -translate-x-1/2 gap-1 px-2 py-1 text-xs whitespace-nowrap',
  /** The whole of a small picture (a thumbnail, a header's avatar): the lock only, the text as its label. */
  cover: 'bg-black/35 hover:bg-black/55 inset-0 justify-center rounded-[inherit]',
} as const;

/**
 * Over a picture the server gave a guest blurred (an explicit picture, PRODUCT.md §6): "Log in to
 * see", opening the log-in dialog and coming back here. Nothing for a signed-in viewer or a
 * sharp picture. The parent is `relative` and is not itself a link or a button.
 */
export function BlurredPictureHint({
  url,
  look = 'pill',
}: {
  url: string | null | undefined;
  look?: keyof typeof LOOKS;
}) {
  const { t } = useTranslation();
  const { isAuthorized } = useSession();
  const { pathname, search } = useLocation();
  if (isAuthorized || !isBlurredPicture(url)) return null;
  const params = new URLSearchParams(search);
  params.set('login', '1');
  params.set('next', `${pathname}${search}`);
  return (
    <Link
      to={{ pathname, search: `?${params.toString()}` }}
      data-testid="blurred-picture-hint"
      aria-label={t('app.blurred_login_label')}
      title={t('app.blurred_login')}
      className={`absolute z-10 flex items-center rounded-full font-medium text-white shadow-lg transition focus-visible:outline-2 focus-visible:outline-primary ${LOOKS[look]}`}
    >
      <Icon icon={Lock} size="sm" className="shrink-0" />
      {look !== 'cover' && <span className="truncate">{t('app.blurred_login')}</span>}
    </Link>
  );
}
