import { isRouteErrorResponse, Link, useLocation, useRouteError } from 'react-router';
import { useEffect } from 'react';
import { useTranslation } from '../../lib/i18n';
import { Compass } from 'lucide-react';
import { Icon } from '../../components/ui/icon';
import { isChunkLoadError, reloadAfterChunkError } from '../../lib/chunk-reload';
import { currentEdition } from '../../lib/edition';
import { useShowNavigation } from '../layout/layout-mode';

/**
 * The error page: "Page Not Found" for a 404 — "Page not found: {path}" when no route
 * matches, "Page Not Found: {path}" when a page's validity check fails — and "Internal
 * Server Error" for anything else.
 */
export function ErrorPage() {
  const error = useRouteError();
  const { pathname } = useLocation();
  const is404 = isRouteErrorResponse(error) && error.status === 404;
  if (!is404 && isChunkLoadError(error)) reloadAfterChunkError(pathname);
  const noMatch = is404 && (error.data as { reason?: string } | undefined)?.reason === 'no_match';
  return <ErrorView status={is404 ? 404 : 500} noMatch={noMatch} />;
}

/**
 * The error page's content, also shown by pages whose data turns out to be missing (`/{slug}`
 * of no visible character): always with the site's navigation, and the page's title.
 */
export function ErrorView({ status, noMatch = false }: { status: 404 | 500; noMatch?: boolean }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const is404 = status === 404;
  useShowNavigation();
  const title = is404 ? t('errors.page_not_found_title') : t('errors.server_error_title');
  useEffect(() => {
    const before = document.title;
    document.title = `${title} — ${currentEdition().name}`;
    return () => {
      document.title = before;
    };
  }, [title]);
  return (
    <div
      className="mx-auto flex min-h-[60dvh] max-w-xl flex-col items-center justify-center gap-4 px-6 py-16 text-center"
      data-testid="error-page"
      data-status={status}
    >
      <p className="bg-gradient-to-r from-primary to-secondary bg-clip-text text-7xl font-bold text-transparent">
        {is404 ? '404' : '500'}
      </p>
      <h1 className="text-2xl font-semibold">{title}</h1>
      <p className="text-muted">
        {is404
          ? t(noMatch ? 'errors.no_route' : 'errors.page_not_found', { path: pathname })
          : t('errors.server_error_text')}
      </p>
      <Link
        to="/"
        className="mt-4 inline-flex items-center gap-2 rounded-full bg-primary px-6 py-3 font-semibold text-on-primary"
      >
        <Icon icon={Compass} size="md" />
        {t('errors.go_home')}
      </Link>
    </div>
  );
}
