import { and, desc, eq, gt, isNotNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { desireClaims, payments, subscriptions, users, webhookEvents } from '../../db/schema.js';

export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type PaymentRow = typeof payments.$inferSelect;

/**
 * Takes the daily claim atomically: inserts the claim row or moves it forward only when the
 * previous claim is at least `intervalMs` old. Answers the new claim time, or null when the
 * user claimed too recently (a concurrent claim waits on the row lock and then gets null).
 */
export async function takeDailyClaim(
  tx: Database,
  userId: string,
  now: Date,
  intervalMs: number,
): Promise<Date | null> {
  const cutoff = new Date(now.getTime() - intervalMs).toISOString();
  const rows = await tx
    .insert(desireClaims)
    .values({ userId, lastClaimedAt: now })
    .onConflictDoUpdate({
      target: desireClaims.userId,
      set: { lastClaimedAt: now },
      setWhere: sql`${desireClaims.lastClaimedAt} <= ${cutoff}::timestamptz`,
    })
    .returning({ lastClaimedAt: desireClaims.lastClaimedAt });
  return rows[0]?.lastClaimedAt ?? null;
}

export async function findLastClaim(db: Database, userId: string): Promise<Date | null> {
  const [row] = await db.select().from(desireClaims).where(eq(desireClaims.userId, userId));
  return row?.lastClaimedAt ?? null;
}

/** The subscription that gives premium now (the one ending last), if any. */
export async function findCurrentSubscription(
  db: Database,
  userId: string,
  now: Date,
): Promise<SubscriptionRow | null> {
  const [row] = await db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, userId), gt(subscriptions.currentPeriodEnd, now)))
    .orderBy(desc(subscriptions.currentPeriodEnd))
    .limit(1);
  return row ?? null;
}

export async function findUserEmail(db: Database, userId: string): Promise<string | null> {
  const [row] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  return row?.email ?? null;
}

export async function insertPayment(db: Database, values: typeof payments.$inferInsert): Promise<PaymentRow> {
  const [row] = await db.insert(payments).values(values).returning();
  return row!;
}

export async function setPaymentProviderRef(db: Database, id: string, providerRef: string | null): Promise<void> {
  await db.update(payments).set({ providerRef, updatedAt: new Date() }).where(eq(payments.id, id));
}

export async function findPayment(db: Database, id: string): Promise<PaymentRow | null> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
  const [row] = await db.select().from(payments).where(eq(payments.id, id));
  return row ?? null;
}

/** Moves a pending payment to paid or failed; answers the row only if this call moved it. */
export async function settlePayment(
  tx: Database,
  id: string,
  status: 'paid' | 'failed',
  providerRef: string | null,
): Promise<PaymentRow | null> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
  const [row] = await tx
    .update(payments)
    .set({
      status,
      updatedAt: new Date(),
      // A flagged payment keeps the refused subscription's id (isRefusedSubscription).
      ...(providerRef
        ? {
            providerRef: sql`case when ${payments.refundReason} is null then ${providerRef} else ${payments.providerRef} end`,
          }
        : {}),
    })
    .where(
      and(eq(payments.id, id), status === 'paid' ? sql`${payments.status} <> 'paid'` : eq(payments.status, 'pending')),
    )
    .returning();
  return row ?? null;
}

/** Records a provider event id; false when it was already recorded (a redelivery). */
export async function recordWebhookEvent(
  tx: Database,
  provider: string,
  eventId: string,
  type: string,
): Promise<boolean> {
  const rows = await tx
    .insert(webhookEvents)
    .values({ provider, eventId, type })
    .onConflictDoNothing()
    .returning({ eventId: webhookEvents.eventId });
  return rows.length > 0;
}

/** Locks the subscription row for an update, creating it first when new. */
export async function lockOrCreateSubscription(
  tx: Database,
  values: typeof subscriptions.$inferInsert,
): Promise<{ row: SubscriptionRow; created: boolean }> {
  const inserted = await tx.insert(subscriptions).values(values).onConflictDoNothing().returning();
  if (inserted[0]) return { row: inserted[0], created: true };
  const [row] = await tx
    .select()
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.provider, values.provider),
        eq(subscriptions.providerSubscriptionId, values.providerSubscriptionId),
      ),
    )
    .for('update');
  return { row: row!, created: false };
}

export async function updateSubscription(
  tx: Database,
  id: string,
  values: Partial<typeof subscriptions.$inferInsert>,
): Promise<SubscriptionRow> {
  const [row] = await tx
    .update(subscriptions)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(subscriptions.id, id))
    .returning();
  return row!;
}

/**
 * Locks the user's row until the transaction ends: activations of the same account (two
 * checkouts approved at once, concurrent webhooks, on any replica) take their turn here.
 */
export async function lockUser(tx: Database, userId: string): Promise<boolean> {
  const rows = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
  return rows.length > 0;
}

export async function findSubscriptionByRef(
  tx: Database,
  provider: SubscriptionRow['provider'],
  providerSubscriptionId: string,
): Promise<SubscriptionRow | null> {
  const [row] = await tx
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.provider, provider), eq(subscriptions.providerSubscriptionId, providerSubscriptionId)));
  return row ?? null;
}

/**
 * Marks a paid payment for the operator to refund (e.g. `duplicate_subscription`). With
 * `providerRef` (a refused subscription's id) the payment also remembers what it paid for,
 * so later events of that subscription are recognised (`isRefusedSubscription`) and the
 * operator finds it in the provider's dashboard; only a payment of that user and provider.
 */
export async function flagPaymentForRefund(
  tx: Database,
  paymentId: string,
  reason: string,
  refused?: { provider: PaymentRow['provider']; userId: string; providerRef: string },
): Promise<void> {
  if (!/^[0-9a-f-]{36}$/i.test(paymentId)) return;
  if (!refused) {
    await tx.update(payments).set({ refundReason: reason, updatedAt: new Date() }).where(eq(payments.id, paymentId));
    return;
  }
  await tx
    .update(payments)
    .set({ refundReason: reason, providerRef: refused.providerRef, updatedAt: new Date() })
    .where(
      and(eq(payments.id, paymentId), eq(payments.provider, refused.provider), eq(payments.userId, refused.userId)),
    );
}

/** True when a flagged payment records this provider subscription as refused. */
export async function isRefusedSubscription(
  tx: Database,
  provider: PaymentRow['provider'],
  providerSubscriptionId: string,
): Promise<boolean> {
  const rows = await tx
    .select({ id: payments.id })
    .from(payments)
    .where(
      and(
        eq(payments.provider, provider),
        eq(payments.providerRef, providerSubscriptionId),
        isNotNull(payments.refundReason),
      ),
    )
    .limit(1);
  return rows.length > 0;
}
