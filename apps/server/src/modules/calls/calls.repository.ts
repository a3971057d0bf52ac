import { and, eq, isNull, lt, ne, or, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { hasRow, updateAny } from '../../db/rows.js';
import { calls } from '../../db/schema.js';

/** The unique index that allows one live call per user (a second is a conflict, 409). */
export const LIVE_CALL_INDEX = 'calls_live_idx';

/**
 * The seconds a call counts: none once recognition was tried and has never worked in it (a
 * call in which nothing the user said could be understood costs no minute), else the seconds
 * so far (a call nobody has spoken in yet counts, as the line is held).
 */
const unrecognised = sql`${calls.recognition} = 'failed'`;
const billable = (seconds: number) => sql`case when ${unrecognised} then 0 else ${seconds}::int end`;

/** `now() + ms` on the database's clock (replicas' clocks may differ). */
const fromNow = (ms: number) => sql`now() + ${ms} * interval '1 millisecond'` as unknown as Date;

/** Still resumable: not ended, and the owner's lease plus the grace period not run out. */
const resumable = (graceMs: number) =>
  and(isNull(calls.endedAt), sql`${calls.leaseUntil} + ${graceMs} * interval '1 millisecond' > now()`);

/** A new call, live until `leaseMs` from now unless a socket claims it. */
export async function insertCall(
  db: Database,
  values: { userId: string; chatId: string; locale: string; leaseMs: number; resumeKeyHash: string },
): Promise<string> {
  const [row] = await db
    .insert(calls)
    .values({
      userId: values.userId,
      chatId: values.chatId,
      locale: values.locale,
      leaseUntil: fromNow(values.leaseMs),
      resumeKeyHash: values.resumeKeyHash,
    })
    .returning({ id: calls.id });
  return row!.id;
}

/**
 * Ends the user's live calls that no socket holds (a token never used, a dropped call waiting
 * to be resumed) or whose owner died (lease run out); answers how many.
 */
export async function endIdleCalls(db: Database, userId: string): Promise<number> {
  const ended = await db
    .update(calls)
    .set({ endedAt: sql`now()` as unknown as Date, endReason: 'timeout', owner: null })
    .where(
      and(eq(calls.userId, userId), isNull(calls.endedAt), or(isNull(calls.owner), lt(calls.leaseUntil, sql`now()`))),
    )
    .returning({ id: calls.id });
  return ended.length;
}

/** Seconds of calling billed to the user today (UTC), other than `exceptCallId`'s. */
export async function secondsUsedToday(db: Database, userId: string, exceptCallId?: string): Promise<number> {
  const [row] = await db
    .select({ seconds: sql<string | number>`coalesce(sum(${calls.secondsBilled}), 0)` })
    .from(calls)
    .where(
      and(
        eq(calls.userId, userId),
        sql`${calls.startedAt} >= date_trunc('day', now() at time zone 'UTC') at time zone 'UTC'`,
        exceptCallId ? ne(calls.id, exceptCallId) : undefined,
      ),
    );
  return Number(row?.seconds ?? 0);
}

export interface ClaimedCall {
  id: string;
  userId: string;
  chatId: string;
  locale: string;
  /** Seconds since the first connection (0 for a first connection). */
  elapsedS: number;
}

/**
 * A socket takes the call: by its id (a token, for its user) or by its resume key, while the
 * call is resumable. The socket's connection becomes the owner (any earlier one, on any
 * replica, loses it), the lease starts, the first connection starts the billing, and the
 * resume key is replaced by a new one.
 */
export async function claimCall(
  db: Database,
  by: { callId: string; userId: string } | { resumeKeyHash: string },
  values: { owner: string; leaseMs: number; graceMs: number; newResumeKeyHash: string },
): Promise<ClaimedCall | null> {
  const [row] = await db
    .update(calls)
    .set({
      owner: values.owner,
      leaseUntil: fromNow(values.leaseMs),
      connectedAt: sql`coalesce(${calls.connectedAt}, now())` as unknown as Date,
      lastSeenAt: sql`now()` as unknown as Date,
      resumeKeyHash: values.newResumeKeyHash,
    })
    .where(
      and(
        'callId' in by
          ? and(eq(calls.id, by.callId), eq(calls.userId, by.userId))
          : eq(calls.resumeKeyHash, by.resumeKeyHash),
        resumable(values.graceMs),
      ),
    )
    .returning({
      id: calls.id,
      userId: calls.userId,
      chatId: calls.chatId,
      locale: calls.locale,
      elapsedS: sql<string | number>`extract(epoch from (now() - ${calls.connectedAt}))`,
    });
  return row ? { ...row, elapsedS: Math.max(0, Number(row.elapsedS)) } : null;
}

/** The owner renews its lease and writes the seconds so far; false when it no longer owns a live call. */
export async function renewCall(
  db: Database,
  callId: string,
  owner: string,
  values: { leaseMs: number; secondsBilled: number },
): Promise<boolean> {
  return updateLiveCall(db, callId, owner, {
    leaseUntil: fromNow(values.leaseMs),
    lastSeenAt: sql`now()` as unknown as Date,
    secondsBilled: billable(values.secondsBilled) as unknown as number,
  });
}

/** The socket dropped: the call waits for a resume (any replica) during the grace period. */
export async function releaseCall(
  db: Database,
  callId: string,
  owner: string,
  secondsBilled: number,
): Promise<boolean> {
  return updateLiveCall(db, callId, owner, {
    owner: null,
    leaseUntil: sql`now()` as unknown as Date,
    secondsBilled: billable(secondsBilled) as unknown as number,
  });
}

/** Ends the call held by `owner` (null: whoever holds it); false when it was not live (or not theirs). */
export async function endCall(
  db: Database,
  callId: string,
  owner: string | null,
  values: { reason: string; secondsBilled: number },
): Promise<boolean> {
  return updateLiveCall(db, callId, owner, {
    endedAt: sql`now()` as unknown as Date,
    endReason: values.reason,
    owner: null,
    secondsBilled:
      sql`case when ${unrecognised} then 0 else greatest(${calls.secondsBilled}, ${values.secondsBilled}::int) end` as unknown as number,
  });
}

/**
 * What recognition did in a call, from any replica: `worked` (an utterance was understood,
 * even as nothing) always wins and the call's seconds count, all of them; `failed` is kept
 * only while it never worked, and the call counts no second (`billable`).
 */
export async function recordRecognition(db: Database, callId: string, outcome: 'failed' | 'worked'): Promise<void> {
  await db
    .update(calls)
    .set({
      recognition: outcome,
      ...(outcome === 'failed' ? { secondsBilled: 0 } : {}),
    })
    .where(
      and(
        eq(calls.id, callId),
        outcome === 'worked'
          ? or(isNull(calls.recognition), eq(calls.recognition, 'failed'))
          : isNull(calls.recognition),
      ),
    );
}

/** Updates a call that has not ended and that `owner` holds (null: whoever holds it); false when there is none. */
async function updateLiveCall(
  db: Database,
  callId: string,
  owner: string | null,
  values: Partial<typeof calls.$inferInsert>,
): Promise<boolean> {
  return updateAny(
    db,
    calls,
    and(eq(calls.id, callId), owner === null ? undefined : eq(calls.owner, owner), isNull(calls.endedAt)),
    values,
  );
}

/**
 * Ends the calls nobody resumed in time: a dropped call after its grace period, a call whose
 * owner died (kill -9) after its lease and the grace period. Their seconds are those last written.
 */
export async function endExpiredCalls(db: Database, graceMs: number): Promise<string[]> {
  const rows = await db
    .update(calls)
    .set({ endedAt: sql`now()` as unknown as Date, endReason: 'timeout', owner: null })
    .where(and(isNull(calls.endedAt), sql`${calls.leaseUntil} + ${graceMs} * interval '1 millisecond' <= now()`))
    .returning({ id: calls.id });
  return rows.map((row) => row.id);
}

/** Whether a resume key names a call at all (ended or not). */
export async function resumeKeyKnown(db: Database, resumeKeyHash: string): Promise<boolean> {
  return hasRow(db, calls, eq(calls.resumeKeyHash, resumeKeyHash));
}

/** A call by id (tests, the socket's checks). */
export async function findCall(db: Database, callId: string) {
  const [row] = await db.select().from(calls).where(eq(calls.id, callId));
  return row ?? null;
}
