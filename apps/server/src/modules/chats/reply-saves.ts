import type { Database } from '../../db/client.js';
import { GroupCommit } from '../../lib/group-commit.js';
import { saveReplies, type ReplySave } from './messages.repository.js';

/**
 * The saves of the replies this process generates — every 2 s while one streams, and the final
 * one — as a group commit (`lib/group-commit.ts`): the saves of all replies that ask at about the
 * same moment go in one UPDATE (`saveReplies`). A save's promise settles once its statement has
 * finished, so the runner still shows a reply's final message only after its text is in the
 * database; `close()` waits for every save asked for (shutdown never loses a final text).
 */
export class ReplySaves {
  private readonly queue: GroupCommit<ReplySave, undefined>;

  /** `relaxedCommit`: the saves commit without waiting for the disk (`db/commit-mode.ts`). */
  constructor(db: Database, relaxedCommit = false) {
    this.queue = new GroupCommit(async (saves) => {
      await saveReplies(db, saves, relaxedCommit);
      return saves.map(() => undefined);
    });
  }

  /** A save while the reply streams: its text so far, and its lease renewed for `leaseMs`. */
  progress(messageId: string, text: string, leaseMs: number): Promise<undefined> {
    return this.queue.push({ messageId, text, leaseMs, updatedAt: new Date() });
  }

  /**
   * The final save: text, state and error code; the reply is no longer live (no owner, no
   * lease), and its time is `at` (when it was written). With `trace`, what went into its prompt
   * is kept in the same statement.
   */
  final(
    messageId: string,
    values: { text: string; state: NonNullable<ReplySave['state']>; errorCode: string | null },
    trace?: ReplySave['trace'],
    at = new Date(),
  ): Promise<undefined> {
    return this.queue.push({ messageId, ...values, updatedAt: at, trace });
  }

  /** Answers once every save asked for so far is written. */
  close(): Promise<void> {
    return this.queue.flush();
  }
}
