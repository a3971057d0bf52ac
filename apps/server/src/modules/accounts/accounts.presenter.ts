import { toLocale, type Preferences, type Profile, type ProfileBilling } from '@reverie/shared';
import type { UserRow } from './accounts.repository.js';

/** The Profile of API.md: the account, with the billing part merged in. */
export function presentProfile(user: UserRow, billing?: ProfileBilling): Profile {
  return {
    id: user.id,
    name: user.name,
    age: user.age ?? null,
    email: user.email,
    is_email_confirmed: user.isEmailConfirmed,
    has_subscription: false,
    num_tokens: user.numTokens,
    locale: toLocale(user.locale) ?? 'en',
    role: user.role,
    subscription: null,
    next_claim_at: null,
    ...billing,
  };
}

export function presentPreferences(user: UserRow): Preferences {
  return {
    locale: toLocale(user.locale) ?? 'en',
    interests: user.interests,
    marketing_emails: user.marketingEmails,
    creator_page_hidden: user.creatorPageHidden,
  };
}

export const presentRegistered = (user: UserRow) => ({ id: user.id, name: user.name, email: user.email });
