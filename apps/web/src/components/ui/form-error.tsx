/** A form's error that belongs to no one field (the server refused, the network failed); nothing without a message. */
export function FormError({ message, testId }: { message?: string | null; testId?: string }) {
  if (!message) return null;
  return (
    <p
      role="alert"
      className="rounded-xl border border-red-400/40 bg-red-950/60 px-4 py-3 text-sm text-red-100"
      data-testid={testId}
    >
      {message}
    </p>
  );
}

/**
 * The line under a text field: its error, when it has one, then how much of it is used
 * (`count`, e.g. "12/80"). The chat's title, a memory's text.
 */
export function ErrorAndCount({
  error,
  errorId,
  count,
  className = '',
}: {
  error?: string | null;
  /** The error's id, which the field names in `aria-describedby`. */
  errorId: string;
  count: string;
  className?: string;
}) {
  return (
    <div className={`flex items-start justify-between gap-2 text-xs ${className}`.trim()}>
      {error ? (
        <span id={errorId} role="alert" className="min-w-0 text-red-300">
          {error}
        </span>
      ) : (
        <span />
      )}
      {/* Beside a long error the count keeps its width: "52 / 500" never stacks into three lines. */}
      <span className="shrink-0 whitespace-nowrap text-muted tabular-nums" data-testid="field-count">
        {count}
      </span>
    </div>
  );
}
