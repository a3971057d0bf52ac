import { z } from 'zod';
import { freeText, singleLine } from '../input.js';
import { ISSUE_TEXT_MAX, LOCALES, PASSWORD_MAX, PASSWORD_MIN, USERNAME_MAX } from '../constants.js';

/**
 * Accounts contract (API.md "Accounts and tokens"). Messages are keys of `validation.*` so
 * that server field errors and web form errors show the same translated text (spec §5).
 */
const requiredString = (requiredKey: string) =>
  singleLine(
    z.string({ error: (issue) => (issue.input === undefined || issue.input === null ? requiredKey : 'invalid_value') }),
  ).trim();

export const EmailField = requiredString('email_required')
  .min(1, 'email_required')
  .max(254, 'email_invalid')
  .pipe(z.email('email_invalid'));

export const PasswordField = z
  .string({
    error: (issue) => (issue.input === undefined || issue.input === null ? 'password_required' : 'invalid_value'),
  })
  .min(1, 'password_required')
  .min(PASSWORD_MIN, 'password_min')
  .max(PASSWORD_MAX, 'password_max');

export const UsernameField = requiredString('username_required')
  .min(1, 'username_required')
  .max(USERNAME_MAX, 'username_max');

/** Tags a user can pick in onboarding (stored on the user). */
export const INTEREST_TAGS = [
  'anime',
  'realistic',
  'romance',
  'fantasy',
  'adventure',
  'slice_of_life',
  'sci_fi',
  'mystery',
  'comedy',
  'drama',
] as const;
export type InterestTag = (typeof INTEREST_TAGS)[number];

export const RegisterBodySchema = z
  .object({
    username: UsernameField,
    email: EmailField,
    password: PasswordField,
    age_confirmed: z.literal(true, { error: 'age_confirm_required' }),
    locale: z.enum(LOCALES).optional(),
  })
  .meta({ id: 'RegisterBody' });
export type RegisterBody = z.infer<typeof RegisterBodySchema>;

export const RegisteredSchema = z
  .object({ id: z.string(), name: z.string(), email: z.string() })
  .meta({ id: 'Registered' });

export const LoginBodySchema = z
  .object({
    email: EmailField,
    password: z
      .string({ error: (issue) => (issue.input === undefined ? 'password_required' : 'invalid_value') })
      .min(1, 'password_required')
      .max(PASSWORD_MAX, 'password_max'),
  })
  .meta({ id: 'LoginBody' });
export type LoginBody = z.infer<typeof LoginBodySchema>;

export const TokenPairSchema = z.object({ access: z.string(), refresh: z.string() }).meta({ id: 'TokenPair' });
export type TokenPair = z.infer<typeof TokenPairSchema>;

export const RefreshBodySchema = z.object({
  refresh: requiredString('required').min(1, 'required').max(500, 'invalid_value'),
});

export const ProfileUpdateBodySchema = z
  .object({
    name: requiredString('name_required').min(1, 'name_required').max(USERNAME_MAX, 'username_max'),
    age: z
      .number({ error: 'invalid_value' })
      .int('invalid_value')
      .min(18, 'age_min_18')
      .max(120, 'invalid_value')
      .nullable()
      .optional(),
  })
  .meta({ id: 'ProfileUpdateBody' });
export type ProfileUpdateBody = z.infer<typeof ProfileUpdateBodySchema>;

export const PreferencesBodySchema = z
  .object({
    locale: z.enum(LOCALES, { error: 'invalid_value' }).optional(),
    interests: z
      .array(z.enum(INTEREST_TAGS, { error: 'invalid_value' }))
      .max(INTEREST_TAGS.length, 'too_many_items')
      .optional(),
    marketing_emails: z.boolean({ error: 'invalid_value' }).optional(),
    /** Hide the creator page (`/u/{id}`, the user's public characters): it answers 404. */
    creator_page_hidden: z.boolean({ error: 'invalid_value' }).optional(),
  })
  .meta({ id: 'PreferencesBody' });
export type PreferencesBody = z.infer<typeof PreferencesBodySchema>;

export const PreferencesSchema = z
  .object({
    locale: z.enum(LOCALES),
    interests: z.array(z.string()),
    marketing_emails: z.boolean(),
    creator_page_hidden: z.boolean(),
  })
  .meta({ id: 'Preferences' });
export type Preferences = z.infer<typeof PreferencesSchema>;

export const DetailSchema = z.object({ detail: z.string() }).meta({ id: 'Detail' });

export const ActivationParamsSchema = z.object({ code: singleLine().max(200) });

export const ResendActivationQuerySchema = z.object({ force: z.enum(['1', 'true', '0', 'false']).optional() });

export const PasswordResetBodySchema = z.object({ email: EmailField }).meta({ id: 'PasswordResetBody' });

export const ValidateTokenBodySchema = z.object({
  token: requiredString('required').min(1, 'required').max(200, 'invalid_value'),
});
export const TokenValidSchema = z.object({ valid: z.literal(true) });

export const PasswordSetBodySchema = z
  .object({ password: PasswordField, password_confirm: z.string({ error: 'required' }).min(1, 'required') })
  .refine((v) => v.password === v.password_confirm, { message: 'passwords_mismatch', path: ['password_confirm'] })
  .meta({ id: 'PasswordSetBody' });
export type PasswordSetBody = z.infer<typeof PasswordSetBodySchema>;
export const PasswordTokenParamsSchema = z.object({ token: singleLine().max(200) });

/** The password the user types to confirm who they are (any length the log-in accepts). */
const CurrentPasswordField = z
  .string({ error: (issue) => (issue.input === undefined ? 'password_required' : 'invalid_value') })
  .min(1, 'password_required')
  .max(PASSWORD_MAX, 'password_max');

/** `DELETE /api/profile`: "Delete all data" only with the account's password (issue 27). */
export const DeleteAccountBodySchema = z.object({ password: CurrentPasswordField }).meta({ id: 'DeleteAccountBody' });
export type DeleteAccountBody = z.infer<typeof DeleteAccountBodySchema>;

/** `POST /api/profile/password`: the current password and a new one (the sign-up's rules). */
export const PasswordChangeBodySchema = z
  .object({ current_password: CurrentPasswordField, new_password: PasswordField })
  .meta({ id: 'PasswordChangeBody' });
export type PasswordChangeBody = z.infer<typeof PasswordChangeBodySchema>;

/** The Settings form of a password change: the new password typed twice. */
export const PasswordChangeFormSchema = z
  .object({
    current_password: CurrentPasswordField,
    new_password: PasswordField,
    new_password_confirm: z.string({ error: 'required' }).min(1, 'required'),
  })
  .refine((v) => v.new_password === v.new_password_confirm, {
    message: 'passwords_mismatch',
    path: ['new_password_confirm'],
  });
export type PasswordChangeForm = z.infer<typeof PasswordChangeFormSchema>;

export const UnsubscribeBodySchema = z.object({
  token: requiredString('required').min(1, 'required').max(500, 'invalid_value'),
});

export const SupportBodySchema = z
  .object({
    email: singleLine().pipe(z.email('email_invalid').max(254, 'email_invalid')).optional(),
    subject: singleLine().trim().max(200, 'invalid_value').optional().default(''),
    text: freeText(
      z.string({
        error: (issue) => (issue.input === undefined || issue.input === null ? 'required' : 'invalid_value'),
      }),
    )
      .trim()
      .min(1, 'required')
      .max(ISSUE_TEXT_MAX, 'text_max'),
  })
  .meta({ id: 'SupportBody' });
export type SupportBody = z.infer<typeof SupportBodySchema>;
export const SupportCreatedSchema = z.object({ id: z.string() });

/** Web form schemas: same rules, plus what only a form has. */
export const SignupFormSchema = z.object({
  username: UsernameField,
  email: EmailField,
  password: PasswordField,
  age_confirmed: z.boolean().refine((v) => v, 'age_confirm_required'),
});
export type SignupForm = z.infer<typeof SignupFormSchema>;
