/**
 * A read that only the access check before it makes answerable, run beside that check instead
 * of after it: one database round trip less on the chat's hottest reads (a history page, a
 * search, a page around a message; bench/README.md "long-chat-story"). The check decides: when
 * it throws (a 404 for a chat that is not the user's, or not an id at all), its error is the
 * answer and the read's result — or its own failure, such as a malformed id reaching SQL — is
 * dropped unseen. Only for reads: a write must wait for its check.
 */
export async function readWhenAllowed<T>(check: Promise<unknown>, read: () => Promise<T>): Promise<T> {
  const result = read();
  // Settled here too, so that a read failing after a refused check is never an unhandled rejection.
  result.catch(() => undefined);
  await check;
  return result;
}
