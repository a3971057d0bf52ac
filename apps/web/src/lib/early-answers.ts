/**
 * Answers asked for before anyone needs them (docs/chat.md "Long chats", "Opening"): a route's
 * loader starts a page's first requests while the page's code is still loading, and the query
 * that would have asked takes the answer once instead. Features start and take them by key; a
 * feature's key is its own.
 *
 * An answer belongs to the navigation that started it: the next navigation drops what was not
 * taken. A key already asked for in this navigation is not started any more — the page rendered
 * first and asked the server itself. (Else that late answer waited, and the next opening of the
 * same chat took it: a page read before the messages sent since, shown as the chat's history.)
 */
const early = new Map<string, { at: number; answer: Promise<unknown> }>();
/** The keys the queries have asked for in this navigation (whether an answer was waiting or not). */
const asked = new Set<string>();

/** An answer is used this long after its request started; later, the query asks again. */
const FRESH_MS = 10_000;

/** A navigation begins (a route's loader runs): the answers of the one before are dropped. */
export function beginNavigation(): void {
  early.clear();
  asked.clear();
}

/** Starts `ask` now; its answer waits under `key` for `takeEarly` (unless it was asked for already). */
export function startEarly(key: string, ask: () => Promise<unknown>): void {
  if (asked.has(key)) return;
  const answer = ask();
  // A failure is the query's to show, when it takes the answer; none is reported here.
  answer.catch(() => {});
  early.set(key, { at: Date.now(), answer });
}

/** The answer started under `key`, once; null when none was started (or it is old). */
export function takeEarly<T>(key: string): Promise<T> | null {
  asked.add(key);
  const entry = early.get(key);
  early.delete(key);
  return entry && Date.now() - entry.at < FRESH_MS ? (entry.answer as Promise<T>) : null;
}

/** The key of a character's page data, `/api/bot/{slug}` (started with a chat's opening). */
export const earlyBotKey = (slug: string) => `bot:${slug}`;

/** Forgets the answers not taken (tests). */
export const forgetEarlyAnswers = beginNavigation;
