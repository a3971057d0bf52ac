import type { ReactNode } from 'react';
import { Skeleton } from '../../../components/ui/page';

/** Small pieces the Characters, Review and Blog sections share (the app's dark look). */
export const inputClass =
  'mt-1 w-full rounded-xl border border-white/10 bg-bg px-3 py-2 text-sm outline-none focus:border-primary';
export const primaryButton =
  'rounded-full bg-primary px-4 py-2 text-sm font-semibold text-on-primary disabled:opacity-50';
export const secondaryButton =
  'rounded-full border border-white/15 px-4 py-2 text-sm hover:bg-white/5 disabled:opacity-50';
export const dangerButton =
  'rounded-full border border-red-400/40 px-4 py-2 text-sm text-red-200 hover:bg-red-950/40 disabled:opacity-50';
export const cardClass = 'rounded-2xl border border-white/10 bg-surface p-4';

/** A labelled field with its errors under it. */
export function Field({
  label,
  htmlFor,
  hint,
  errors,
  children,
}: {
  label: string;
  htmlFor: string;
  hint?: string;
  errors?: string[];
  children: ReactNode;
}) {
  return (
    <div>
      <label htmlFor={htmlFor} className="block text-sm font-medium">
        {label}
      </label>
      {children}
      {hint && <p className="mt-1 text-xs text-muted">{hint}</p>}
      {errors?.map((error) => (
        <p key={error} className="mt-1 text-xs text-red-400" role="alert">
          {error}
        </p>
      ))}
    </div>
  );
}

/**
 * A labelled text input (`rows` 1, the default) or text area (more rows, or `rows` 0 for the
 * browser's default height) with its hint and errors under it; `onChange` gets the text.
 */
export function TextField({
  id,
  label,
  hint,
  errors,
  value,
  onChange,
  maxLength,
  rows = 1,
  disabled,
  className = inputClass,
  testId,
}: {
  id: string;
  label: string;
  hint?: string;
  errors?: string[];
  value: string;
  onChange: (value: string) => void;
  maxLength: number;
  rows?: number;
  disabled?: boolean;
  className?: string;
  testId?: string;
}) {
  const control = {
    id,
    value,
    maxLength,
    disabled,
    className,
    'data-testid': testId,
  };
  return (
    <Field label={label} htmlFor={id} hint={hint} errors={errors}>
      {rows === 1 ? (
        <input {...control} onChange={(event) => onChange(event.target.value)} />
      ) : (
        <textarea {...control} rows={rows || undefined} onChange={(event) => onChange(event.target.value)} />
      )}
    </Field>
  );
}

/** A small coloured label (state of a character or a post). */
export function Badge({ tone, children }: { tone: 'ok' | 'warn' | 'bad' | 'muted'; children: ReactNode }) {
  const colours = {
    ok: 'bg-emerald-500/15 text-emerald-200',
    warn: 'bg-amber-500/15 text-amber-200',
    bad: 'bg-red-500/15 text-red-200',
    muted: 'bg-white/10 text-muted',
  }[tone];
  return <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${colours}`}>{children}</span>;
}

/**
 * A content section's list (characters, the review queue, blog posts): a skeleton while it
 * loads, the error, the empty text, or the items as `render` draws them (each its own `li`).
 */
export function ContentList<T>({
  pending,
  error,
  items,
  empty,
  emptyTestId,
  className = 'flex flex-col gap-2',
  render,
}: {
  pending: boolean;
  error: Error | null;
  items: readonly T[] | undefined;
  empty: string;
  emptyTestId?: string;
  className?: string;
  render: (item: T) => ReactNode;
}) {
  if (pending) return <Skeleton className="h-48" />;
  if (error)
    return (
      <p role="alert" className="text-red-300">
        {error.message}
      </p>
    );
  if (!items?.length)
    return (
      <p className={`${cardClass} text-muted`} data-testid={emptyTestId}>
        {empty}
      </p>
    );
  return <ul className={className}>{items.map(render)}</ul>;
}
