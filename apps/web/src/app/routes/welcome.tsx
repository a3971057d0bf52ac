import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { INTEREST_TAGS, type InterestTag, type Locale } from '@reverie/shared';
import { LanguageChoice } from '../../components/ui/language-choice';
import { Logo } from '../../components/ui/logo';
import { Skeleton } from '../../components/ui/page';
import { finishOnboarding } from '../../features/auth';
import { updatePreferences } from '../../features/auth/api/preferences';
import { useSession } from '../../lib/session';
import { useRecommendedBots } from '../../features/onboarding/api/get-recommended-bots';
import { currentLocale, useTranslation } from '../../lib/i18n';
import { selectLocale } from '../layout/language-picker';
import '../../features/onboarding/texts';

const TOTAL = 3;

/** `/welcome`, after the first sign-up: language, what the user likes, recommended characters. */
export function Component() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { isAuthorized } = useSession();
  const [step, setStep] = useState(1);
  const [locale, setLocale] = useState<Locale>(currentLocale());
  const [likes, setLikes] = useState<InterestTag[]>([]);
  const bots = useRecommendedBots(likes, step === 3);

  const save = (body: Parameters<typeof updatePreferences>[0]) => {
    if (isAuthorized) void updatePreferences(body).catch(() => undefined);
  };
  const chooseLanguage = async (next: Locale) => {
    setLocale(next);
    await selectLocale(next);
    save({ locale: next });
  };
  const toggle = (tag: InterestTag) =>
    setLikes((current) => (current.includes(tag) ? current.filter((x) => x !== tag) : [...current, tag]));
  const next = () => {
    if (step === 2) save({ interests: likes });
    setStep((s) => Math.min(TOTAL, s + 1));
  };
  const finish = (to = '/') => {
    finishOnboarding();
    navigate(to, { replace: true });
  };

  return (
    <div
      className="relative flex min-h-dvh items-start justify-center overflow-hidden px-4 py-8 sm:items-center"
      data-testid="welcome"
      data-step={step}
    >
      <div className="pointer-events-none absolute inset-0 bg-[radial-gradient(circle_at_20%_10%,var(--color-primary)_0,transparent_45%),radial-gradient(circle_at_90%_90%,var(--color-secondary)_0,transparent_40%)] opacity-20" />
      <div className="relative w-full max-w-2xl rounded-3xl border border-white/10 bg-surface/95 p-6 shadow-2xl sm:p-8">
        <div className="mb-6 flex items-center justify-between gap-4">
          <Logo />
          <p className="text-sm text-muted">{t('onboarding.step', { current: step, total: TOTAL })}</p>
        </div>
        <div className="mb-6 h-1 overflow-hidden rounded-full bg-white/10" aria-hidden="true">
          <div
            className="h-full bg-gradient-to-r from-primary to-secondary transition-all"
            style={{ width: `${(step / TOTAL) * 100}%` }}
          />
        </div>

        {step === 1 && (
          <section>
            <h1 className="text-2xl font-semibold">{t('onboarding.language_title')}</h1>
            <p className="mt-1 mb-5 text-muted">{t('onboarding.language_text')}</p>
            <LanguageChoice
              label={t('onboarding.language_title')}
              value={locale}
              onChange={(code) => void chooseLanguage(code)}
              size="lg"
              className="sm:grid-cols-3"
            />
          </section>
        )}

        {step === 2 && (
          <section>
            <h1 className="text-2xl font-semibold">{t('onboarding.likes_title')}</h1>
            <p className="mt-1 mb-5 text-muted">{t('onboarding.likes_text')}</p>
            <div role="group" aria-label={t('onboarding.likes_title')} className="flex flex-wrap gap-2">
              {INTEREST_TAGS.map((tag) => {
                const on = likes.includes(tag);
                return (
                  <button
                    key={tag}
                    type="button"
                    aria-pressed={on}
                    onClick={() => toggle(tag)}
                    className={`rounded-full border px-4 py-2 text-sm ${on ? 'border-primary bg-primary text-on-primary' : 'border-white/15 hover:bg-white/5'}`}
                  >
                    {t(`onboarding.tags.${tag}`)}
                  </button>
                );
              })}
            </div>
          </section>
        )}

        {step === 3 && (
          <section>
            <h1 className="text-2xl font-semibold">{t('onboarding.characters_title')}</h1>
            <p className="mt-1 mb-5 text-muted">{t('onboarding.characters_text')}</p>
            {bots.isPending && (
              <div className="grid grid-cols-2 gap-3 sm:grid-cols-3">
                {Array.from({ length: 6 }, (_, i) => (
                  <Skeleton key={i} className="aspect-[3/4]" />
                ))}
              </div>
            )}
            {bots.data && bots.data.length > 0 && (
              <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3">
                {bots.data.map((bot) => (
                  <li key={bot.slug}>
                    <button
                      type="button"
                      onClick={() => finish(`/${bot.slug}`)}
                      className="group block w-full overflow-hidden rounded-2xl border border-white/10 bg-bg/60 text-left hover:border-primary"
                    >
                      <div className="aspect-[3/4] bg-white/5">
                        {bot.avatar_url && (
                          <img
                            src={bot.avatar_url}
                            alt=""
                            loading="lazy"
                            className="size-full object-cover transition group-hover:scale-105"
                          />
                        )}
                      </div>
                      <div className="flex items-center justify-between gap-2 p-3">
                        <span className="truncate font-semibold">{bot.name}</span>
                        <span className="text-xs text-primary">{t('onboarding.chat')}</span>
                      </div>
                    </button>
                  </li>
                ))}
              </ul>
            )}
            {(bots.isError || bots.data === null || (bots.data && bots.data.length === 0)) && (
              <div className="rounded-2xl border border-white/10 bg-bg/60 p-5 text-center">
                {bots.isError && <p className="mb-3 text-sm text-muted">{t('onboarding.no_characters')}</p>}
                <Link to="/" onClick={() => finishOnboarding()} className="font-semibold text-primary hover:underline">
                  {t('onboarding.explore_link')}
                </Link>
              </div>
            )}
          </section>
        )}

        <div className="mt-8 flex items-center justify-between gap-3">
          <button
            type="button"
            onClick={step > 1 ? () => setStep((s) => s - 1) : () => finish()}
            className="rounded-full px-4 py-2.5 text-sm text-muted hover:bg-white/5 hover:text-fg"
          >
            {t(step > 1 ? 'onboarding.back' : 'onboarding.skip')}
          </button>
          <button
            type="button"
            onClick={step < TOTAL ? next : () => finish()}
            className="rounded-full bg-primary px-6 py-2.5 font-semibold text-on-primary shadow-lg shadow-primary/30 hover:brightness-110"
          >
            {t(step < TOTAL ? 'onboarding.next' : 'onboarding.finish')}
          </button>
        </div>
      </div>
    </div>
  );
}
