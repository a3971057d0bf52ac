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
