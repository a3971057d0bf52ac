import { and, eq, sql } from 'drizzle-orm';
import { rowsOf, type Database } from '../../db/client.js';
import { companionSettings, companionSlots } from '../../db/schema.js';
import type { Frequency } from './schedule.js';

/**
 * The companion's SQL (docs/companion.md): its own tables `companion_settings` and
 * `companion_slots`, and a read model of `users` (ban, age, address), `safety_events` (the
 * crisis pause) and, for the digest, `messages`, `chats` and `bots` (who wrote) — never written.
 */

export type SettingsRow = typeof companionSettings.$inferSelect;
export type SlotRow = typeof companionSlots.$inferSelect;

const toDate = (value: unknown): Date | null =>
  value === null || value === undefined ? null : new Date(value as string);

export async function findSettings(db: Database, userId: string): Promise<SettingsRow | null> {
  const [row] = await db.select().from(companionSettings).where(eq(companionSettings.userId, userId));
  return row ?? null;
}

/** Writes the given settings (the row is created with the defaults for the rest). */
export async function saveSettings(
  db: Database,
  userId: string,
  values: Partial<Pick<SettingsRow, 'timeZone' | 'quietStart' | 'quietEnd' | 'dailyCap' | 'emailDigest'>>,
): Promise<SettingsRow> {
  const [row] = await db
    .insert(companionSettings)
    .values({ userId, ...values })
    .onConflictDoUpdate({
      target: companionSettings.userId,
      set: Object.keys(values).length ? { ...values, updatedAt: new Date() } : { updatedAt: new Date() },
    })
    .returning();
  return row!;
}

/** Sets the time zone only when none is known yet (the first opt-in from a browser). */
export async function saveZoneIfUnknown(db: Database, userId: string, timeZone: string): Promise<void> {
  await db.execute(sql`
    insert into companion_settings (user_id, time_zone) values (${userId}::uuid, ${timeZone})
    on conflict (user_id) do update set time_zone = excluded.time_zone
    where companion_settings.time_zone is null`);
}

export async function findSlot(db: Database, chatId: string): Promise<SlotRow | null> {
  const [row] = await db.select().from(companionSlots).where(eq(companionSlots.chatId, chatId));
  return row ?? null;
}

export async function userSlots(db: Database, userId: string): Promise<SlotRow[]> {
  return db.select().from(companionSlots).where(eq(companionSlots.userId, userId));
}

/** A chat's frequency and its slot, planned at `at` (a new slot: attempts 0). */
export async function saveSlot(
  db: Database,
  slot: { chatId: string; userId: string; frequency: Frequency; at: Date | null },
): Promise<SlotRow> {
  const values = { frequency: slot.frequency, slotAt: slot.at, dueAt: slot.at, attempts: 0, updatedAt: new Date() };
  const [row] = await db
    .insert(companionSlots)
    .values({ chatId: slot.chatId, userId: slot.userId, ...values })
    .onConflictDoUpdate({ target: companionSlots.chatId, set: values })
    .returning();
  return row!;
}

export async function deleteSlot(db: Database, chatId: string, userId: string): Promise<void> {
  await db.delete(companionSlots).where(and(eq(companionSlots.chatId, chatId), eq(companionSlots.userId, userId)));
}

/** A slot claimed by this replica: `attempts` counts this claim. */
export interface ClaimedSlot {
  chatId: string;
  userId: string;
  frequency: Frequency;
  slotAt: Date;
  attempts: number;
}

/**
 * Claims up to `limit` due slots in due order (docs/companion.md "Claiming"): one statement,
 * the partial index `companion_slots_due_idx` walked from its start, rows another replica is
 * claiming skipped (`FOR UPDATE SKIP LOCKED`), the claimed rows updated through the primary
 * key (`= any(ids)`: never a scan of the table, however few rows it has). A claimed slot's `due_at` becomes its lease's
 * end: if this replica dies before it is done, any replica claims it again then.
 */
export async function claimDue(db: Database, now: Date, limit: number, leaseSeconds: number): Promise<ClaimedSlot[]> {
  const result = await db.execute(sql`
    with due as (
      select array(
        select chat_id from companion_slots
        where due_at is not null and due_at <= ${now.toISOString()}::timestamptz
        order by due_at
        limit ${limit}
        for update skip locked) as ids)
    update companion_slots s
    set due_at = ${now.toISOString()}::timestamptz + ${leaseSeconds} * interval '1 second',
      attempts = s.attempts + 1, updated_at = now()
    from due
    where s.chat_id = any(due.ids)
    returning s.chat_id, s.user_id, s.frequency, s.slot_at, s.attempts`);
  return rowsOf<{ chat_id: string; user_id: string; frequency: Frequency; slot_at: unknown; attempts: number }>(
    result,
  ).map((r) => ({
    chatId: r.chat_id,
    userId: r.user_id,
    frequency: r.frequency,
    slotAt: toDate(r.slot_at)!,
    attempts: Number(r.attempts),
  }));
}

/**
 * Plans a claimed slot again at `at` (null: none planned, paused) — only while it is still the
 * slot that was claimed (a change of settings meanwhile planned another: that one stays).
 */
export async function moveSlot(db: Database, chatId: string, claimedSlotAt: Date, at: Date | null): Promise<void> {
  await db.execute(sql`
    update companion_slots set slot_at = ${at?.toISOString() ?? null}::timestamptz,
      due_at = ${at?.toISOString() ?? null}::timestamptz, attempts = 0, updated_at = now()
    where chat_id = ${chatId}::uuid and slot_at = ${claimedSlotAt.toISOString()}::timestamptz`);
}

/** A claimed slot failed: claimable again at `at`, its attempts kept (a third claim skips it). */
export async function retrySlotAt(db: Database, chatId: string, claimedSlotAt: Date, at: Date): Promise<void> {
  await db.execute(sql`
    update companion_slots set due_at = ${at.toISOString()}::timestamptz, updated_at = now()
    where chat_id = ${chatId}::uuid and slot_at = ${claimedSlotAt.toISOString()}::timestamptz`);
}

/** What the care rules read of a user, in one statement for a batch of users. */
export interface CareState {
  userId: string;
  locale: string;
  bannedAt: Date | null;
  age: number | null;
  /** The user's latest crisis event. */
  crisisAt: Date | null;
  settings: Pick<SettingsRow, 'timeZone' | 'quietStart' | 'quietEnd' | 'dailyCap' | 'unanswered' | 'day' | 'dayCount'>;
}

export async function careStates(db: Database, userIds: string[], crisisSince: Date): Promise<Map<string, CareState>> {
  if (userIds.length === 0) return new Map();
  const result = await db.execute(sql`
    select u.id, u.locale, u.banned_at, u.age, s.time_zone, s.quiet_start, s.quiet_end, s.daily_cap, s.unanswered,
      s.day, s.day_count,
      (select max(e.created_at) from safety_events e
        where e.kind = 'crisis' and e.user_id = u.id and e.created_at >= ${crisisSince.toISOString()}::timestamptz)
        as crisis_at
    from users u left join companion_settings s on s.user_id = u.id
    where u.id in (select unnest(${`{${userIds.join(',')}}`}::uuid[]))`);
  const states = new Map<string, CareState>();
  for (const r of rowsOf<Record<string, unknown>>(result)) {
    states.set(r.id as string, {
      userId: r.id as string,
      locale: r.locale as string,
      bannedAt: toDate(r.banned_at),
      age: r.age === null ? null : Number(r.age),
      crisisAt: toDate(r.crisis_at),
      settings: {
        timeZone: (r.time_zone as string | null) ?? null,
        quietStart: r.quiet_start === null ? 1320 : Number(r.quiet_start),
        quietEnd: r.quiet_end === null ? 540 : Number(r.quiet_end),
        dailyCap: r.daily_cap === null ? 3 : Number(r.daily_cap),
        unanswered: r.unanswered === null ? 0 : Number(r.unanswered),
        day: (r.day as string | null) ?? null,
        dayCount: r.day_count === null ? 0 : Number(r.day_count),
      },
    });
  }
  return states;
}

/**
 * Takes one of the user's proactive messages before it is written, for the whole cluster in
 * one statement: refused (false) when the daily cap of the local `day` is reached or the
 * user left the last `maxUnanswered` unanswered. Given back with `releaseSend` when nothing was written.
 */
export async function reserveSend(db: Database, userId: string, day: string, maxUnanswered: number): Promise<boolean> {
  const result = await db.execute(sql`
    insert into companion_settings as s (user_id, unanswered, day, day_count) values (${userId}::uuid, 1, ${day}, 1)
    on conflict (user_id) do update set unanswered = s.unanswered + 1,
      day_count = case when s.day = ${day} then s.day_count + 1 else 1 end, day = ${day}
    where s.unanswered < ${maxUnanswered} and (s.day is distinct from ${day} or s.day_count < s.daily_cap)
    returning user_id`);
  return rowsOf(result).length > 0;
}

/** Gives back a reservation whose message was not written. */
export async function releaseSend(db: Database, userId: string, day: string): Promise<void> {
  await db.execute(sql`
    update companion_settings set unanswered = greatest(unanswered - 1, 0),
      day_count = case when day = ${day} then greatest(day_count - 1, 0) else day_count end
    where user_id = ${userId}::uuid`);
}

/** A proactive message was written: the digest waits for it (since the first one not yet sent). */
export async function markDigestPending(db: Database, userId: string, at: Date): Promise<void> {
  await db.execute(sql`
    update companion_settings set digest_pending_since = coalesce(digest_pending_since, ${at.toISOString()}::timestamptz)
    where user_id = ${userId}::uuid`);
}

/**
 * The user wrote in a chat: the silence rule is lifted, in one round trip (the chats module's
 * every send asks it). Answers whether it had stopped her messages or counted any, and whether
 * the chat has a slot of the user's.
 */
export async function userWrote(
  db: Database,
  userId: string,
  chatId: string,
): Promise<{ lifted: boolean; hasSlot: boolean }> {
  const result = await db.execute(sql`
    with cleared as (
      update companion_settings set unanswered = 0 where user_id = ${userId}::uuid and unanswered > 0 returning user_id)
    select exists (select 1 from cleared) as lifted,
      exists (select 1 from companion_slots where chat_id = ${chatId}::uuid and user_id = ${userId}::uuid) as has_slot`);
  const [row] = rowsOf<{ lifted: boolean | string; has_slot: boolean | string }>(result);
  const yes = (value: boolean | string | undefined) => value === true || value === 't';
  return { lifted: yes(row?.lifted), hasSlot: yes(row?.has_slot) };
}

/** A user due a digest: opted in, verified, not unsubscribed nor banned, a message waiting, none sent for a day. */
export interface DigestRow {
  userId: string;
  email: string;
  name: string;
  locale: string;
  pendingSince: Date;
  /** The characters who wrote since (at most three names, newest first). */
  characters: string[];
}

export async function dueDigests(db: Database, now: Date, limit: number): Promise<DigestRow[]> {
  const dayAgo = new Date(now.getTime() - 24 * 3600_000).toISOString();
  const result = await db.execute(sql`
    select s.user_id, u.email, u.name, u.locale, s.digest_pending_since,
      array(select b.name from messages m join chats c on c.id = m.chat_id join bots b on b.id = c.bot_id
        where m.user_id = s.user_id and m.proactive_slot is not null and m.created_at >= s.digest_pending_since
        group by b.name order by max(m.created_at) desc limit 3) as characters
    from companion_settings s join users u on u.id = s.user_id
    where s.email_digest and s.digest_pending_since is not null
      and (s.digest_sent_at is null or s.digest_sent_at <= ${dayAgo}::timestamptz)
      and u.is_email_confirmed and u.marketing_emails and u.banned_at is null
    order by s.digest_pending_since
    limit ${limit}`);
  return rowsOf<Record<string, unknown>>(result).map((r) => ({
    userId: r.user_id as string,
    email: r.email as string,
    name: r.name as string,
    locale: r.locale as string,
    pendingSince: toDate(r.digest_pending_since)!,
    characters: parseArray(r.characters),
  }));
}

function parseArray(value: unknown): string[] {
  if (Array.isArray(value)) return value as string[];
  if (typeof value === 'string' && value.startsWith('{')) {
    const inner = value.slice(1, -1);
    return inner ? inner.split(',').map((s) => s.replace(/^"|"$/g, '').replace(/\\"/g, '"')) : [];
  }
  return [];
}

/** The digest went out (or was due and owed nothing): nothing waits, none for a day. */
export async function markDigestSent(db: Database, userId: string, at: Date): Promise<boolean> {
  const result = await db.execute(sql`
    update companion_settings set digest_sent_at = ${at.toISOString()}::timestamptz, digest_pending_since = null
    where user_id = ${userId}::uuid and digest_pending_since is not null
      and (digest_sent_at is null or digest_sent_at <= ${new Date(at.getTime() - 24 * 3600_000).toISOString()}::timestamptz)
    returning user_id`);
  return rowsOf(result).length > 0;
}

/** Whether the user's address is verified (the digest's condition, shown in Settings). */
export async function emailVerified(db: Database, userId: string): Promise<boolean> {
  const result = await db.execute(sql`select is_email_confirmed from users where id = ${userId}::uuid`);
  const [row] = rowsOf<{ is_email_confirmed: boolean | string }>(result);
  return row?.is_email_confirmed === true || row?.is_email_confirmed === 't';
}
