/**
 * Answers asked for before anyone needs them (docs/chat.md "Long chats", "Opening"): a route's
 * loader starts a page's first requests while the page's code is still loading, and the query
 * that would have asked takes the answer once instead, if it is recent. Features start and take
 * them by key; a feature's key is its own.
 */
const early = new Map<string, { at: number; answer: Promise<unknown> }>();

/** An answer is used this long after its request started; later, the query asks again. */
const FRESH_MS = 10_000;

/** Starts `ask` now; its answer waits under `key` for `takeEarly`. */
export function startEarly(key: string, ask: () => Promise<unknown>): void {
  const answer = ask();
  // A failure is the query's to show, when it takes the answer; none is reported here.
  answer.catch(() => {});
  early.set(key, { at: Date.now(), answer });
}

/** The answer started under `key`, once; null when none was started (or it is old). */
export function takeEarly<T>(key: string): Promise<T> | null {
  const entry = early.get(key);
  early.delete(key);
  return entry && Date.now() - entry.at < FRESH_MS ? (entry.answer as Promise<T>) : null;
}

/** The key of a character's page data, `/api/bot/{slug}` (started with a chat's opening). */
export const earlyBotKey = (slug: string) => `bot:${slug}`;

/** Forgets the answers not taken (tests). */
export const forgetEarlyAnswers = () => early.clear();
