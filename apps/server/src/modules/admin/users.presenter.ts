import type {
  AdminLedgerEntry,
  AdminPayment,
  AdminSession,
  AdminSubscription,
  AdminUserDetail,
  AdminUserSummary,
} from '@reverie/shared';
import { presentSubscriptionView } from '../billing/index.js';
import type { AdminUserRow, LedgerRow, PaymentRow, SessionRow, SubscriptionRow } from './users.repository.js';

const iso = (value: Date | string) => new Date(value).toISOString();
const isoOrNull = (value: Date | string | null) => (value ? iso(value) : null);

export const presentUserSummary = (u: AdminUserRow): AdminUserSummary => ({
  id: u.id,
  name: u.name,
  username: u.username,
  email: u.email,
  role: u.role,
  created_at: iso(u.createdAt),
  banned: u.bannedAt !== null,
  balance: u.numTokens,
});

export const presentPayment = (p: PaymentRow): AdminPayment => ({
  id: p.id,
  user_id: p.userId,
  user_email: p.userEmail,
  provider: p.provider,
  provider_ref: p.providerRef,
  plan: p.plan,
  amount_cents: p.amountCents,
  currency: p.currency,
  status: p.status,
  refund_reason: p.refundReason,
  trial_days: p.trialDays,
  refunded_cents: p.refundedCents,
  created_at: iso(p.createdAt),
  updated_at: iso(p.updatedAt),
});

export const presentLedgerEntry = (e: LedgerRow): AdminLedgerEntry => ({
  id: Number(e.id),
  user_id: e.userId,
  user_email: e.userEmail,
  amount: e.amount,
  reason: e.reason,
  reference: e.reference,
  created_at: iso(e.createdAt),
});

export const presentSession = (s: SessionRow): AdminSession => ({
  id: s.id,
  created_at: iso(s.created_at),
  last_used_at: iso(s.last_used_at),
  expires_at: iso(s.expires_at),
  live: Boolean(s.live),
});

export const presentSubscription = (s: SubscriptionRow, now = new Date()): AdminSubscription => ({
  id: s.id,
  provider: s.provider,
  plan: s.plan,
  status: s.status,
  current_period_end: iso(s.currentPeriodEnd),
  cancel_at_period_end: s.cancelAtPeriodEnd,
  trial_ends_at: isoOrNull(s.trialEndsAt),
  view: presentSubscriptionView(s, now, s.provider !== 'nowpayments'),
});

export function presentUserDetail(
  u: AdminUserRow,
  extra: { payments: PaymentRow[]; subscription: SubscriptionRow | null; sessions: SessionRow[] },
): AdminUserDetail {
  return {
    id: u.id,
    name: u.name,
    username: u.username,
    email: u.email,
    age: u.age,
    locale: u.locale,
    role: u.role,
    created_at: iso(u.createdAt),
    is_email_confirmed: u.isEmailConfirmed,
    banned_at: isoOrNull(u.bannedAt),
    ban_reason: u.banReason,
    balance: u.numTokens,
    payments: extra.payments.map(presentPayment),
    subscription: extra.subscription ? presentSubscription(extra.subscription) : null,
    sessions: extra.sessions.map(presentSession),
  };
}

/** What the audit log keeps of a user (no password hash, no tokens). */
export const auditView = (u: AdminUserRow) => ({
  email: u.email,
  role: u.role,
  balance: u.numTokens,
  banned_at: isoOrNull(u.bannedAt),
  ban_reason: u.banReason,
});
