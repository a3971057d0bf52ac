import '../../lib/error-texts';
import { useState, type ReactNode } from 'react';
import { Link, Navigate, useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { ISSUE_TEXT_MAX, ProfileUpdateBodySchema, type Locale, type ProfileUpdateBody } from '@reverie/shared';
import { showAlert } from '../../components/ui/alerts';
import { LanguageChoice } from '../../components/ui/language-choice';
import { Page, Skeleton } from '../../components/ui/page';
import { SwitchRow } from '../../components/ui/switch-row';
import { logout, requestVerification } from '../../features/auth';
import { updatePreferences, usePreferences } from '../../features/auth/api/preferences';
import { sendSupportReport } from '../../features/auth/api/support';
import { updateProfileRequest } from '../../features/auth/api/update-profile';
import { applyServerErrors, SubmitButton, TextField, useErrorText } from '../../features/auth/components/form';
import { profileKeys } from '../../lib/query-keys';
import { setProfileData, useProfile } from '../../lib/profile';
import { useSession } from '../../lib/session';
import { ManageSubscription, MANAGE_SUBSCRIPTION_ID } from '../../features/billing/components/manage-subscription';
import { currentLocale, useTranslation } from '../../lib/i18n';
import { useZodForm } from '../../lib/zod-form';
import { selectLocale } from '../layout/language-picker';
import { useModal } from '../../lib/modals';
import { CreateCharacterButton } from '../create-character-button';
import { ChangePasswordForm, DeleteAllData } from './settings-account';
import { CompanionSettingsForm } from '../../features/companion';
import { NotificationSettings } from './settings-notifications';
import { DownloadMyData } from './settings-data-export';
import './settings-texts';
import { MY_CHARACTERS_PATH } from '../../features/characters/paths';
import '../../features/auth/texts';

function Section({ title, children, testId }: { title: string; children: ReactNode; testId?: string }) {
  return (
    <section
      id={testId}
      className="scroll-mt-20 rounded-3xl border border-white/10 bg-surface p-5 sm:p-6"
      data-testid={testId}
      aria-labelledby={`${testId}-title`}
    >
      <h2 id={`${testId}-title`} className="mb-4 text-lg font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}

const buttonSecondary =
  'rounded-full border border-white/15 px-5 py-2.5 text-sm font-semibold hover:bg-white/5 disabled:opacity-60';

function ProfileForm() {
  const { t } = useTranslation();
  const { profile } = useProfile();
  const queryClient = useQueryClient();
  const { register, handleSubmit, setError, formState } = useZodForm<ProfileUpdateBody>(ProfileUpdateBodySchema, {
    values: { name: profile?.name ?? '', age: profile?.age ?? null },
  });
  const onSubmit = handleSubmit(async (values) => {
    try {
      setProfileData(queryClient, await updateProfileRequest(values));
      showAlert(t('settings.saved'));
    } catch (error) {
      applyServerErrors(error, ['name', 'age'], setError, t('errors.profile_update_error'));
      showAlert(t('errors.profile_update_error'), { type: 'error' });
    }
  });
  return (
    <form
      onSubmit={onSubmit}
      noValidate
      className="grid gap-4 sm:grid-cols-[1fr_8rem_auto] sm:items-start"
      data-testid="profile-form"
    >
      <TextField
        label={t('settings.name')}
        autoComplete="nickname"
        error={formState.errors.name?.message}
        {...register('name')}
      />
      <TextField
        label={t('settings.age')}
        type="number"
        inputMode="numeric"
        min={18}
        max={120}
        error={formState.errors.age?.message}
        {...register('age', { setValueAs: (v) => (v === '' || v === null ? null : Number(v)) })}
      />
      <SubmitButton busy={formState.isSubmitting} className="sm:mt-7 sm:w-auto">
        {t('settings.save')}
      </SubmitButton>
    </form>
  );
}

const ReportSchema = z.object({ text: z.string().trim().min(1, 'required').max(ISSUE_TEXT_MAX, 'text_max') });

function ReportForm() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const { register, handleSubmit, reset, watch, formState } = useZodForm<{ text: string }>(ReportSchema, {
    defaultValues: { text: '' },
  });
  const length = watch('text').length;
  const onSubmit = handleSubmit(async ({ text }) => {
    try {
      await sendSupportReport({ text, subject: 'Settings report' });
      reset();
      showAlert(t('settings.report_sent'));
    } catch {
      showAlert(t('errors.report_failed'), { type: 'error' });
    }
  });
  const error = errorText(formState.errors.text?.message);
  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-3" data-testid="report-form">
      <label htmlFor="report-text" className="sr-only">
        {t('settings.report_section')}
      </label>
      <textarea
        id="report-text"
        rows={4}
        placeholder={t('settings.report_placeholder')}
        aria-invalid={error ? true : undefined}
        className={`w-full resize-y rounded-xl border bg-bg/60 px-4 py-3 outline-none focus:border-primary focus:ring-2 focus:ring-primary/30 ${error ? 'border-red-400/70' : 'border-white/10'}`}
        {...register('text')}
      />
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className={`text-sm ${length > ISSUE_TEXT_MAX ? 'text-red-300' : 'text-muted'}`} aria-live="polite">
          {length} / {ISSUE_TEXT_MAX}
        </p>
        <button type="submit" disabled={formState.isSubmitting} className={buttonSecondary}>
          {t('settings.report_send')}
        </button>
      </div>
      {error && (
        <p role="alert" className="text-sm text-red-300" data-field-error="text">
          {error}
        </p>
      )}
    </form>
  );
}

/** `/settings`: profile, e-mail, language, subscription, report, password, log-out, download my data, delete all data. */
export function Component() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const modal = useModal();
  const { isAuthorized } = useSession();
  const { profile, isPremium } = useProfile();
  const preferences = usePreferences(isAuthorized);
  const queryClient = useQueryClient();
  const [locale, setLocale] = useState<Locale>(currentLocale());
  const [sending, setSending] = useState(false);

  const chooseLanguage = async (next: Locale) => {
    setLocale(next);
    await selectLocale(next);
    try {
      await updatePreferences({ locale: next });
      showAlert(t('settings.language_saved'));
    } catch {
      showAlert(t('errors.something_went_wrong'), { type: 'error' });
    }
  };

  const toggleMarketing = async (value: boolean) => {
    try {
      queryClient.setQueryData(profileKeys.preferences(), await updatePreferences({ marketing_emails: value }));
    } catch {
      showAlert(t('errors.something_went_wrong'), { type: 'error' });
    }
  };

  const toggleCreatorPage = async (shown: boolean) => {
    try {
      queryClient.setQueryData(profileKeys.preferences(), await updatePreferences({ creator_page_hidden: !shown }));
    } catch {
      showAlert(t('errors.something_went_wrong'), { type: 'error' });
    }
  };

  const sendVerification = async () => {
    setSending(true);
    try {
      const result = await requestVerification(profile, true);
      showAlert(result?.sent ? t('auth.verification_sent') : t('auth.verification_not_sent'));
    } catch {
      showAlert(t('errors.something_went_wrong'), { type: 'error' });
    } finally {
      setSending(false);
    }
  };

  // Signed out meanwhile (here or in another tab): the home page, never skeletons forever. A
  // session that ended on its own opens the login modal instead (useAuthBootstrap).
  if (!isAuthorized) return <Navigate to="/" replace />;
  if (!profile) {
    return (
      <Page title={t('pages.settings_title')}>
        <div className="grid gap-4">
          <Skeleton className="h-40" />
          <Skeleton className="h-32" />
        </div>
      </Page>
    );
  }

  return (
    <Page
      title={t('pages.settings_title')}
      subtitle={profile.email}
      actions={
        <div className="flex flex-wrap gap-2">
          <Link
            to={MY_CHARACTERS_PATH}
            className="rounded-full border border-white/15 px-5 py-2.5 text-sm font-semibold hover:bg-white/5"
            data-testid="settings-my-characters"
          >
            {t('nav.my_characters')}
          </Link>
          <Link
            to="/lorebooks"
            className="rounded-full border border-white/15 px-5 py-2.5 text-sm font-semibold hover:bg-white/5"
            data-testid="settings-lorebooks"
          >
            {t('settings.lorebooks')}
          </Link>
          <CreateCharacterButton testId="settings-create-character" />
        </div>
      }
    >
      <div className="grid max-w-3xl gap-4">
        <Section title={t('settings.profile_section')} testId="settings-profile">
          <ProfileForm />
        </Section>

        <Section title={t('settings.creator_section')} testId="settings-creator">
          <p className="text-sm text-muted">{t('settings.creator_text')}</p>
          <SwitchRow
            className="mt-4 text-sm"
            label={t('settings.creator_show')}
            disabled={!preferences.data}
            checked={!(preferences.data?.creator_page_hidden ?? false)}
            onChange={(shown) => void toggleCreatorPage(shown)}
            testId="settings-creator-switch"
          />
          {preferences.data && !preferences.data.creator_page_hidden && (
            <Link
              to={`/u/${profile.id}`}
              className="mt-3 inline-block text-sm font-semibold text-primary hover:underline"
              data-testid="settings-creator-link"
            >
              {t('settings.creator_open')}
            </Link>
          )}
        </Section>

        <Section title={t('settings.email_section')} testId="settings-email">
          <div className="flex flex-wrap items-center gap-3">
            <span className="break-all">{profile.email}</span>
            <span
              data-testid="email-status"
              className={`rounded-full px-3 py-1 text-xs font-semibold ${profile.is_email_confirmed ? 'bg-emerald-500/15 text-emerald-300' : 'bg-amber-500/15 text-amber-200'}`}
            >
              {profile.is_email_confirmed ? t('settings.email_confirmed') : t('settings.email_unconfirmed')}
            </span>
          </div>
          {!profile.is_email_confirmed && (
            <button type="button" onClick={sendVerification} disabled={sending} className={`${buttonSecondary} mt-4`}>
              {t('settings.send_verification')}
            </button>
          )}
        </Section>

        <Section title={t('companion.section')} testId="companion">
          <CompanionSettingsForm />
        </Section>

        <Section title={t('settings.language_section')} testId="settings-language">
          <LanguageChoice
            label={t('settings.language_section')}
            value={locale}
            onChange={(code) => void chooseLanguage(code)}
            className="sm:grid-cols-5"
          />
        </Section>

        <Section title={t('settings.subscription_section')} testId="settings-subscription">
          <div className="flex flex-wrap items-center justify-between gap-3">
            <div>
              <p className="font-medium">{isPremium ? t('settings.premium_active') : t('settings.premium_inactive')}</p>
              <p className="text-sm text-muted">
                {t('settings.balance')}: {t('nav.balance_value', { count: profile.num_tokens })}
              </p>
            </div>
            {!isPremium && (
              <button
                type="button"
                onClick={() => modal.open('premium', { from: 'settings' })}
                className="rounded-full bg-gradient-to-r from-primary to-secondary px-5 py-2.5 text-sm font-semibold text-on-primary"
              >
                {t('settings.get_premium')}
              </button>
            )}
          </div>
          <SwitchRow
            className="mt-4 border-t border-white/10 pt-4 text-sm"
            label={t('settings.marketing_emails')}
            disabled={!preferences.data}
            checked={preferences.data?.marketing_emails ?? false}
            onChange={(on) => void toggleMarketing(on)}
          />
        </Section>

        <Section title={t('settings.notifications_section')} testId="notifications">
          <NotificationSettings viewer={profile.id} />
        </Section>

        <Section title={t('billing.manage_title')} testId={MANAGE_SUBSCRIPTION_ID}>
          <ManageSubscription />
        </Section>

        <Section title={t('settings.report_section')} testId="settings-report">
          <ReportForm />
        </Section>

        <Section title={t('settings.password_section')} testId="settings-password">
          <ChangePasswordForm />
        </Section>

        <Section title={t('settings.session_section')} testId="settings-session">
          <div className="flex flex-wrap gap-3">
            <button
              type="button"
              onClick={async () => {
                await logout();
                queryClient.clear();
                navigate('/', { replace: true });
              }}
              className={buttonSecondary}
              data-testid="logout"
            >
              {t('auth.logout')}
            </button>
            {profile.role === 'admin' && (
              <Link to="/admin" className={buttonSecondary}>
                {t('settings.admin_link')}
              </Link>
            )}
          </div>
        </Section>

        <Section title={t('settings.data_section')} testId="settings-data-export">
          <DownloadMyData viewer={profile.id} />
        </Section>

        <Section title={t('settings.danger_section')} testId="settings-delete">
          <DeleteAllData />
        </Section>
      </div>
    </Page>
  );
}
