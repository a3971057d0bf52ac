/**
 * What a plain test memory is unless a test says otherwise: about the user, importance 3, not
 * pinned, written by the model (each builder adds its own empty `sourceMessageIds`: an array
 * shared by every test's rows could be changed by one of them). Shared by the database builder
 * (`memory-pair.ts` `userMemoryValues`) and the database-free ranking tests (`retrieval.test.ts`);
 * this file imports nothing, so a database-free test can use it.
 */
export const PLAIN_USER_MEMORY = {
  kind: 'user',
  eventDate: null,
  importance: 3,
  pinned: false,
  origin: 'model',
} as const;
