import '../texts';
import { Suspense, useEffect, useRef } from 'react';
import { Link, useParams } from 'react-router';
import { useTranslation } from '../../../lib/i18n';
import { formatNumber } from '../../../lib/format';
import { Skeleton } from '../../../components/ui/page';
import type { Locale } from '@reverie/shared';
import { ADMIN_SECTIONS, findSection, type AdminSection } from '../sections';
import { useAdminCount } from '../api/get-count';

function NavLink({ section, active }: { section: AdminSection; active: boolean }) {
  const { t, i18n } = useTranslation();
  const count = useAdminCount(section.countPath).data ?? 0;
  const ref = useRef<HTMLAnchorElement>(null);
  // On a phone the navigation is a row wider than the screen: the open section stays in view.
  useEffect(() => {
    if (active) ref.current?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }, [active]);
  return (
    <Link
      ref={ref}
      to={`/admin/${section.id}`}
      aria-current={active ? 'page' : undefined}
      data-testid={`admin-nav-${section.id}`}
      className={`flex shrink-0 items-center justify-between gap-3 rounded-xl px-3 py-2 text-sm whitespace-nowrap transition ${
        active ? 'bg-white/10 font-medium text-white' : 'text-muted hover:bg-white/5 hover:text-white'
      }`}
    >
      <span>{t(section.labelKey)}</span>
      {count > 0 && (
        <span
          className="rounded-full bg-primary px-2 py-0.5 text-xs font-semibold text-on-primary"
          data-testid={`admin-count-${section.id}`}
        >
          {formatNumber(count, i18n.language as Locale)}
        </span>
      )}
    </Link>
  );
}

/**
 * The admin console's frame: the sections' navigation (a scrolling row on a phone, a column
 * on a desktop) and the open section, read from `/admin/<section>/<item>`.
 */
export function AdminConsole() {
  const { t } = useTranslation();
  const params = useParams();
  const [sectionId, itemId] = (params['*'] ?? '').split('/');
  const section = findSection(sectionId) ?? ADMIN_SECTIONS[0] ?? null;
  return (
    <div className="flex flex-col gap-6 lg:flex-row">
      <nav
        aria-label={t('admin.nav_label')}
        className="-mx-4 flex gap-1 overflow-x-auto px-4 lg:mx-0 lg:w-56 lg:shrink-0 lg:flex-col lg:overflow-visible lg:px-0"
      >
        {ADMIN_SECTIONS.map((s) => (
          <NavLink key={s.id} section={s} active={s.id === section?.id} />
        ))}
      </nav>
      <div className="min-w-0 flex-1">
        {section && (
          <Suspense fallback={<Skeleton className="h-64" />}>
            <section.Component itemId={section.id === sectionId && itemId ? itemId : null} />
          </Suspense>
        )}
      </div>
    </div>
  );
}
