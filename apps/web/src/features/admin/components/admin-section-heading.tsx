import type { ReactNode } from 'react';

/**
 * A section's heading under the console's page title (the page's one `h1`): an `h2` with the
 * `id` its `<section aria-labelledby>` names, an optional line of intro, and actions on the right.
 */
export function AdminSectionHeading({
  id,
  title,
  intro,
  children,
}: {
  id: string;
  title: string;
  intro?: string;
  children?: ReactNode;
}) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-3">
      <div className="min-w-0">
        <h2 id={id} className="text-xl font-semibold">
          {title}
        </h2>
        {intro && <p className="text-sm text-muted">{intro}</p>}
      </div>
      {children}
    </div>
  );
}

/**
 * A section's own page: a `<section>` named by its heading (`admin-<id>-title`), with the
 * section's actions beside the title and its content under it.
 */
export function AdminSectionPage({
  id,
  title,
  intro,
  actions,
  testId,
  children,
}: {
  id: string;
  title: string;
  intro?: string;
  actions?: ReactNode;
  testId?: string;
  children: ReactNode;
}) {
  const headingId = `admin-${id}-title`;
  return (
    <section className="flex flex-col gap-4" aria-labelledby={headingId} data-testid={testId}>
      <AdminSectionHeading id={headingId} title={title} intro={intro}>
        {actions}
      </AdminSectionHeading>
      {children}
    </section>
  );
}
