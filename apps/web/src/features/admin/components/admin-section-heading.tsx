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
