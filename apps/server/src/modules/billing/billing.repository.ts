import { and, desc, eq, gt, inArray, isNotNull, or, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Database } from '../../db/client.js';
import { findRow, hasRow, insertIfAbsent, insertRow, updateRow } from '../../db/rows.js';
import { desireClaims, payments, subscriptions, trialUses, users, webhookEvents } from '../../db/schema.js';

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
  return findRow(
    db,
    subscriptions,
    and(eq(subscriptions.userId, userId), gt(subscriptions.currentPeriodEnd, now)),
    desc(subscriptions.currentPeriodEnd),
  );
}

export async function findUserEmail(db: Database, userId: string): Promise<string | null> {
  const [row] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  return row?.email ?? null;
}

export async function insertPayment(db: Database, values: typeof payments.$inferInsert): Promise<PaymentRow> {
  return insertRow(db, payments, values);
}

export async function setPaymentProviderRef(db: Database, id: string, providerRef: string | null): Promise<void> {
  await db.update(payments).set({ providerRef, updatedAt: new Date() }).where(eq(payments.id, id));
}

export async function findPayment(db: Database, id: string): Promise<PaymentRow | null> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
  const [row] = await db.select().from(payments).where(eq(payments.id, id));
  return row ?? null;
}

/**
 * Moves a pending payment to paid or failed; answers the row only if this call moved it.
 * `settled` carries what the provider says it charged (`amountCents`, its charge id).
 */
export async function settlePayment(
  tx: Database,
  id: string,
  status: 'paid' | 'failed',
  providerRef: string | null,
  settled: { amountCents?: number | null; chargeRef?: string | null } = {},
): Promise<PaymentRow | null> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) return null;
  const [row] = await tx
    .update(payments)
    .set({
      status,
      updatedAt: new Date(),
      ...(settled.amountCents != null ? { amountCents: settled.amountCents } : {}),
      ...(settled.chargeRef ? { chargeRef: settled.chargeRef } : {}),
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
  return (await insertIfAbsent(tx, webhookEvents, { provider, eventId, type })) !== null;
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
  return (await updateRow(tx, subscriptions, eq(subscriptions.id, id), { ...values, updatedAt: new Date() }))!;
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
  return findRow(
    tx,
    subscriptions,
    and(eq(subscriptions.provider, provider), eq(subscriptions.providerSubscriptionId, providerSubscriptionId)),
  );
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
  return hasRow(
    tx,
    payments,
    and(
      eq(payments.provider, provider),
      eq(payments.providerRef, providerSubscriptionId),
      isNotNull(payments.refundReason),
    ),
  );
}

/** Sets what a payment charged (a trial checkout whose trial was refused is charged at once). */
export async function setPaymentCharge(tx: Database, id: string, amountCents: number, trialDays: number) {
  await tx.update(payments).set({ amountCents, trialDays, updatedAt: new Date() }).where(eq(payments.id, id));
}

/** A payment recorded by a provider's later charge (a renewal, the first period after a trial). */
export async function insertChargeOnce(
  tx: Database,
  values: typeof payments.$inferInsert & { chargeRef: string },
): Promise<PaymentRow | null> {
  if (await hasRow(tx, payments, and(eq(payments.provider, values.provider), eq(payments.chargeRef, values.chargeRef))))
    return null;
  return insertPayment(tx, values);
}

/**
 * Records a refund of a paid payment, found by our id or by the provider's charge id; the
 * amount is the provider's total refunded so far (capped at what was paid), so a redelivery or
 * a second partial refund event never subtracts twice.
 */
export async function recordRefund(
  tx: Database,
  provider: PaymentRow['provider'],
  match: { paymentId?: string | null; chargeRef?: string | null; invoiceRef?: string | null },
  refundedCents: number,
): Promise<PaymentRow | null> {
  const byId = match.paymentId && /^[0-9a-f-]{36}$/i.test(match.paymentId) ? eq(payments.id, match.paymentId) : null;
  // A later charge is recorded under its payment intent, or its invoice when that was unknown.
  const refs = [match.chargeRef, match.invoiceRef].filter((ref): ref is string => Boolean(ref));
  const byCharge = refs.length > 0 ? inArray(payments.chargeRef, refs) : null;
  const which = byId && byCharge ? or(byId, byCharge) : (byId ?? byCharge);
  if (!which) return null;
  const [row] = await tx
    .update(payments)
    .set({
      refundedCents: sql`least(${payments.amountCents}, greatest(${payments.refundedCents}, ${refundedCents}))`,
      updatedAt: new Date(),
    })
    .where(and(eq(payments.provider, provider), eq(payments.status, 'paid'), which))
    .returning();
  return row ?? null;
}

/**
 * True when the account has had a subscription or a free trial (no second trial); `except`
 * leaves out the provider subscription being judged.
 */
export async function hasHadSubscription(
  db: Database,
  userId: string,
  except?: { provider: PaymentRow['provider']; ref: string },
): Promise<boolean> {
  return (
    (await hasRowOtherThan(db, subscriptions, subscriptions.providerSubscriptionId, userId, except)) ||
    (await hasRowOtherThan(db, trialUses, trialUses.subscriptionRef, userId, except))
  );
}

/** Whether the user has a row in `table`, leaving out the one of `except` (its provider and `ref`). */
async function hasRowOtherThan(
  db: Database,
  table: typeof subscriptions | typeof trialUses,
  ref: AnyPgColumn,
  userId: string,
  except?: { provider: PaymentRow['provider']; ref: string },
): Promise<boolean> {
  return hasRow(
    db,
    table,
    and(
      eq(table.userId, userId),
      except ? sql`not (${table.provider} = ${except.provider} and ${ref} = ${except.ref})` : undefined,
    ),
  );
}

/** True when a trial was already given to this card or customer (hashes), on any account. */
export async function isTrialUsedBy(
  db: Database,
  payer: { cardFingerprintHash: string | null; customerHash: string | null },
  exceptSubscriptionRef: string,
): Promise<boolean> {
  const matches = [
    payer.cardFingerprintHash ? eq(trialUses.cardFingerprintHash, payer.cardFingerprintHash) : null,
    payer.customerHash ? eq(trialUses.customerHash, payer.customerHash) : null,
  ].filter((m) => m !== null);
  if (matches.length === 0) return false;
  return hasRow(db, trialUses, and(or(...matches), sql`${trialUses.subscriptionRef} <> ${exceptSubscriptionRef}`));
}

/** Remembers a free trial given (idempotent per provider subscription). */
export async function recordTrialUse(tx: Database, values: typeof trialUses.$inferInsert): Promise<void> {
  await tx
    .insert(trialUses)
    .values(values)
    .onConflictDoUpdate({
      target: [trialUses.provider, trialUses.subscriptionRef],
      set: {
        cardFingerprintHash: sql`coalesce(excluded.card_fingerprint_hash, ${trialUses.cardFingerprintHash})`,
        customerHash: sql`coalesce(excluded.customer_hash, ${trialUses.customerHash})`,
      },
    });
}

/** True when a trial of this provider subscription was recorded. */
export async function isTrialRecorded(tx: Database, provider: string, subscriptionRef: string): Promise<boolean> {
  return hasRow(
    tx,
    trialUses,
    and(eq(trialUses.provider, provider as PaymentRow['provider']), eq(trialUses.subscriptionRef, subscriptionRef)),
  );
}

/** Moves a trialing subscription to its first paid period; the row only if this call moved it. */
export async function beginPaidPeriod(tx: Database, id: string, now: Date): Promise<SubscriptionRow | null> {
  const [row] = await tx
    .update(subscriptions)
    .set({ status: 'active', stateAt: now, updatedAt: new Date() })
    .where(and(eq(subscriptions.id, id), eq(subscriptions.status, 'trialing')))
    .returning();
  return row ?? null;
}
