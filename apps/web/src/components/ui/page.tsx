import type { ReactNode } from 'react';

/** A page's outer frame and heading. */
export function Page({
  title,
  subtitle,
  children,
  actions,
  headerClassName = '',
}: {
  title: string;
  subtitle?: string;
  children?: ReactNode;
  actions?: ReactNode;
  /** A narrow page's width for its heading (`max-w-3xl`): its actions end where its content does. */
  headerClassName?: string;
}) {
  return (
    <div className="mx-auto w-full max-w-7xl px-4 py-8 lg:px-6">
      <div className={`mb-6 flex flex-wrap items-end justify-between gap-4 ${headerClassName}`.trim()}>
        <div>
          <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">{title}</h1>
          {subtitle && <p className="mt-1 text-muted">{subtitle}</p>}
        </div>
        {actions}
      </div>
      {children}
    </div>
  );
}

export function Skeleton({ className = '' }: { className?: string }) {
  return <div className={`animate-pulse rounded-2xl bg-white/5 ${className}`} aria-hidden="true" />;
}
