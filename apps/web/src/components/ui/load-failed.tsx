/**
 * What a list or a conversation shows when it could not be read: the reason, announced, and a
 * button that reads it again (`className` places the block: its padding, how it fills).
 */
export function LoadFailed({
  text,
  retryLabel,
  onRetry,
  className = '',
}: {
  text: string;
  retryLabel: string;
  onRetry: () => void;
  className?: string;
}) {
  return (
    <div className={`flex flex-col items-center gap-3 text-center ${className}`}>
      <p role="alert">{text}</p>
      <button
        type="button"
        onClick={onRetry}
        className="rounded-full bg-primary px-5 py-2 text-sm font-semibold text-on-primary"
      >
        {retryLabel}
      </button>
    </div>
  );
}
