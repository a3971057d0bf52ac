import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/** What a section of the console is given: the rest of the path after `/admin/<section>/`. */
export interface AdminSectionProps {
  /** `/admin/users/<id>` → `<id>`; null on the section's own page. */
  itemId: string | null;
}

/** One section of the admin console: its address, its label and, optionally, a count badge. */
export interface AdminSection {
  /** `/admin/<id>`. */
  id: string;
  /** Locale key of its label in the navigation. */
  labelKey: string;
  Component: LazyExoticComponent<ComponentType<AdminSectionProps>>;
  /** GET answering `{count}`: what waits for an administrator (shown on the navigation). */
  countPath?: string;
}

/**
 * The console's sections, in navigation order. The first one is where `/admin` lands. Each
 * section is its own chunk, loaded when first opened.
 */
export const ADMIN_SECTIONS: AdminSection[] = [
  {
    id: 'overview',
    labelKey: 'admin.sections.overview',
    Component: lazy(() => import('./sections/overview').then((m) => ({ default: m.OverviewSection }))),
  },
  {
    id: 'review',
    labelKey: 'admin.review.nav',
    Component: lazy(() => import('./sections/review/review-queue')),
    countPath: '/api/admin/review/count',
  },
  {
    id: 'reports',
    labelKey: 'admin.reports.title',
    Component: lazy(() => import('./sections/reports').then((m) => ({ default: m.ReportsSection }))),
    countPath: '/api/admin/reports/count',
  },
  {
    id: 'takedown',
    labelKey: 'admin.takedown.title',
    Component: lazy(() => import('./sections/takedown').then((m) => ({ default: m.TakedownSection }))),
    countPath: '/api/admin/takedown/count',
  },
  {
    id: 'characters',
    labelKey: 'admin.characters.nav',
    Component: lazy(() => import('./sections/characters/characters-section')),
  },
  {
    id: 'users',
    labelKey: 'admin.sections.users',
    Component: lazy(() => import('./sections/users').then((m) => ({ default: m.UsersSection }))),
  },
  {
    id: 'payments',
    labelKey: 'admin.sections.payments',
    Component: lazy(() => import('./sections/payments').then((m) => ({ default: m.PaymentsSection }))),
  },
  { id: 'blog', labelKey: 'admin.blog.nav', Component: lazy(() => import('./sections/blog/blog-section')) },
  {
    id: 'audit',
    labelKey: 'admin.sections.audit',
    Component: lazy(() => import('./sections/audit').then((m) => ({ default: m.AuditSection }))),
  },
];

export const findSection = (id: string | undefined) => ADMIN_SECTIONS.find((s) => s.id === id) ?? null;
