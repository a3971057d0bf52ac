import { z } from 'zod';
import { LOCALES } from '../constants.js';

export const SubscriptionSummarySchema = z.object({
  plan: z.enum(['monthly', 'annual']),
  status: z.enum(['trialing', 'active', 'past_due', 'cancelled']),
  trial_ends_at: z.string().nullable(),
  renews_at: z.string().nullable(),
});

/** The signed-in user (API.md "Profile"). */
export const ProfileSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    age: z.number().int().nullable(),
    email: z.string(),
    is_email_confirmed: z.boolean(),
    has_subscription: z.boolean(),
    num_tokens: z.number().int(),
    locale: z.enum(LOCALES),
    role: z.enum(['user', 'admin']),
    subscription: SubscriptionSummarySchema.nullable(),
    next_claim_at: z.string().nullable(),
  })
  .meta({ id: 'Profile' });
export type Profile = z.infer<typeof ProfileSchema>;

/** The part of the profile that billing owns: balance, premium and the next daily claim. */
export type ProfileBilling = Pick<Profile, 'num_tokens' | 'has_subscription' | 'subscription' | 'next_claim_at'>;
